package org.itsrt.cli;

/**
 * A default input of the repository ({@link ProjectPaths}) is not where it should be. The message
 * names the path, what was expected there, how the repository was found and what to do.
 */
public final class MissingDefaultException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    MissingDefaultException(String message) {
        super(message);
    }
}
