package org.itsrt.clock;

/** Why the TSC clock cannot be used here; the message becomes the fallback clock's warning. */
final class ClockUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    ClockUnavailableException(String message) {
        super(message);
    }

    ClockUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
