package org.itsrt.readings.pems;

import java.time.Instant;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.itsrt.readings.Reading;

/** Counts what one file yielded while it is read, for its {@link FileSummary}. */
final class FileTally {
    private final String file;
    private final SourceKind kind;
    private final Set<Long> stations = new TreeSet<>();
    private int readings;
    private int skipped;
    private int otherStations;
    private Instant first;
    private Instant last;

    FileTally(String file, SourceKind kind) {
        this.file = file;
        this.kind = kind;
    }

    void reading(Reading reading) {
        readings++;
        stations.add(reading.stationId());
        if (first == null || reading.tsUtc().isBefore(first)) {
            first = reading.tsUtc();
        }
        if (last == null || reading.tsUtc().isAfter(last)) {
            last = reading.tsUtc();
        }
    }

    void skipped() {
        skipped++;
    }

    void otherStation() {
        otherStations++;
    }

    FileSummary summary() {
        return new FileSummary(
                file,
                kind,
                Collections.unmodifiableSortedSet(new TreeSet<>(stations)),
                readings,
                skipped,
                otherStations,
                first == null ? null : first.atZone(Reading.PACIFIC).toOffsetDateTime(),
                last == null ? null : last.atZone(Reading.PACIFIC).toOffsetDateTime());
    }
}
