package org.itsrt.readings.pems;

import org.itsrt.readings.Reading;

/** A reading with the file and row it came from, so duplicates and conflicts can be traced. */
record SourcedReading(Reading reading, String file, long row) {
    String origin() {
        return file + ":" + row;
    }
}
