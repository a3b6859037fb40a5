package org.itsrt.readings.pems;

import java.nio.file.Path;
import java.util.regex.Pattern;

/** The PeMS files the importer knows, recognised by name (text files) or content (workbooks). */
public enum SourceKind {
    /** "Aggregates > Time Series" export with flow and speed, or flow only. */
    REPORT_EXPORT("PeMS report export"),
    /** Clearinghouse {@code dNN_text_station_5min_YYYY_MM_DD.txt[.gz]}. */
    CLEARINGHOUSE_STATION_5MIN("clearinghouse station 5-minute file"),
    /** Clearinghouse {@code dNN_text_meta_YYYY_MM_DD.txt}. */
    CLEARINGHOUSE_META("clearinghouse station metadata");

    private static final Pattern STATION_5MIN_NAME =
            Pattern.compile("d\\d{2}_text_station_5min_\\d{4}_\\d{2}_\\d{2}\\.txt(\\.gz)?");
    private static final Pattern META_NAME = Pattern.compile("d\\d{2}_text_meta_\\d{4}_\\d{2}_\\d{2}\\.txt");

    private final String description;

    SourceKind(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    static boolean isStation5MinName(Path file) {
        return STATION_5MIN_NAME.matcher(file.getFileName().toString()).matches();
    }

    static boolean isMetaName(Path file) {
        return META_NAME.matcher(file.getFileName().toString()).matches();
    }
}
