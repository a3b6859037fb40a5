package org.itsrt.model;

import java.nio.file.Path;

/** A model bundle is incomplete or malformed; the message names the file and what is wrong. */
public class ModelBundleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public ModelBundleException(Path file, String problem) {
        this(file, problem, null);
    }

    public ModelBundleException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file (or folder) of the bundle that is missing or wrong. */
    public Path file() {
        return file;
    }
}
