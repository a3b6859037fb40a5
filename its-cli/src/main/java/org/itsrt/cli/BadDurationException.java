package org.itsrt.cli;

/**
 * A duration {@link Durations#parse} refuses. The message starts with the option or key it was
 * given for, when known ({@code --duration: 'soon' is not a duration; write e.g. ...});
 * {@link #detail()} is the same without it, for a caller that names the place itself (picocli,
 * a YAML checker that collects problems per key).
 */
public final class BadDurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String where;
    private final String detail;

    BadDurationException(String where, String detail) {
        super(where == null ? detail : where + ": " + detail);
        this.where = where;
        this.detail = detail;
    }

    /** The option or key the duration was given for, or {@code null} when the caller did not say. */
    public String where() {
        return where;
    }

    /** What is wrong and what would be read, without the option or key. */
    public String detail() {
        return detail;
    }
}
