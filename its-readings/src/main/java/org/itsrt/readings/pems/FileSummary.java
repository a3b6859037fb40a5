package org.itsrt.readings.pems;

import java.time.OffsetDateTime;
import java.util.Set;

/**
 * What the importer took from one input file.
 *
 * @param file          the file as the user named it
 * @param kind          what the file was recognised as
 * @param stations      the selected stations that had rows in it
 * @param readings      rows turned into readings (before de-duplication)
 * @param skipped       rows skipped (see the report's list of skipped rows)
 * @param otherStations rows of stations not selected with {@code --stations}
 * @param first         the earliest reading's time, Pacific; null when there were none
 * @param last          the latest reading's time, Pacific; null when there were none
 */
public record FileSummary(
        String file,
        SourceKind kind,
        Set<Long> stations,
        int readings,
        int skipped,
        int otherStations,
        OffsetDateTime first,
        OffsetDateTime last) {}
