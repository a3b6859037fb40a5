package org.itsrt.records;

/**
 * A record {@link RecordStampsReader} cannot measure. {@link #reason()} is a short category
 * ({@code "missing seq"}, {@code "not JSON"}, ...) that a report can count records by;
 * {@link #getMessage()} is the detail of this one record. Carries no stack trace: the reader
 * throws it for every bad record of a stream, and where it was thrown is always the same.
 */
public final class MalformedRecordException extends RecordFormatException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    MalformedRecordException(String reason, String detail) {
        super(detail, false);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
