package org.itsrt.records;

/** A record that cannot be read: its reason goes with it to the dead-letter topic. */
public class RecordFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public RecordFormatException(String reason) {
        super(reason);
    }
}
