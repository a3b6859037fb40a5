package org.itsrt.records;

/** A record that cannot be read: its reason goes with it to the dead-letter topic. */
public class RecordFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public RecordFormatException(String reason) {
        super(reason);
    }

    /**
     * For readers on a hot path: without a stack trace, a stream of bad records costs little
     * more to reject than good ones cost to read.
     */
    protected RecordFormatException(String message, boolean writableStackTrace) {
        super(message, null, false, writableStackTrace);
    }
}
