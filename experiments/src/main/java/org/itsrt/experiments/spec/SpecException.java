package org.itsrt.experiments.spec;

/** An experiment file that cannot be run as written; the message names the file and the field. */
public final class SpecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SpecException(String message) {
        super(message);
    }
}
