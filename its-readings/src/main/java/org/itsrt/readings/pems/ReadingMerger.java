package org.itsrt.readings.pems;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;

/**
 * Keeps one reading per (station, interval). A second reading for an interval is either a
 * duplicate (it reports nothing the other does not: same flow, % observed and lanes, and the same
 * speed or none) or a conflict (it disagrees). Either way the richer one stays: a reading with
 * speed over a flow-only one, then the higher % observed, then the one seen first.
 */
final class ReadingMerger {
    /** How many conflicts the report shows one by one. */
    static final int EXAMPLES_KEPT = 10;

    private static final Comparator<SourcedReading> RICHNESS = Comparator.comparing(
                    (SourcedReading candidate) -> candidate.reading().hasSpeed())
            .thenComparing(
                    candidate -> candidate.reading().pctObserved(),
                    Comparator.nullsFirst(Comparator.<Double>naturalOrder()));

    /** Two readings of one interval that disagree, and which one the table keeps. */
    record Conflict(SourcedReading kept, SourcedReading dropped) {
        String describe() {
            Reading reading = kept.reading();
            return reading.stationId() + " at " + QualityReport.LOCAL_TIME.format(reading.tsLocal()) + ": kept "
                    + kept.origin() + " (" + values(reading) + ") over " + dropped.origin()
                    + " (" + values(dropped.reading()) + ")";
        }

        private static String values(Reading reading) {
            return "flow " + CanonicalTable.formatNumber(reading.flow())
                    + ", speed " + (reading.speed() == null ? "-" : CanonicalTable.formatNumber(reading.speed()))
                    + ", observed "
                    + (reading.pctObserved() == null ? "-" : CanonicalTable.formatNumber(reading.pctObserved()) + "%")
                    + ", lanes " + reading.lanes();
        }
    }

    /** The files a duplicate was dropped from and kept from. */
    record FilePair(String droppedFrom, String keptFrom) {}

    private final Map<Long, NavigableMap<Instant, SourcedReading>> kept = new TreeMap<>();
    private final Map<Long, Integer> duplicates = new TreeMap<>();
    private final Map<Long, Integer> conflicts = new TreeMap<>();
    private final Map<FilePair, Integer> duplicatesByFiles = new LinkedHashMap<>();
    private final List<Conflict> conflictExamples = new ArrayList<>();
    private int conflictCount;

    void add(SourcedReading candidate) {
        Reading reading = candidate.reading();
        NavigableMap<Instant, SourcedReading> station =
                kept.computeIfAbsent(reading.stationId(), id -> new TreeMap<>());
        SourcedReading current = station.get(reading.tsUtc());
        if (current == null) {
            station.put(reading.tsUtc(), candidate);
            return;
        }
        // Ties keep the current one: it was seen first.
        boolean candidateWins = RICHNESS.compare(candidate, current) > 0;
        SourcedReading winner = candidateWins ? candidate : current;
        SourcedReading loser = candidateWins ? current : candidate;
        station.put(reading.tsUtc(), winner);
        if (sameMeasurement(current.reading(), reading)) {
            duplicates.merge(reading.stationId(), 1, Integer::sum);
            duplicatesByFiles.merge(new FilePair(loser.file(), winner.file()), 1, Integer::sum);
        } else {
            conflicts.merge(reading.stationId(), 1, Integer::sum);
            conflictCount++;
            if (conflictExamples.size() < EXAMPLES_KEPT) {
                conflictExamples.add(new Conflict(winner, loser));
            }
        }
    }

    /** True when neither reading reports anything the other contradicts; a missing speed contradicts nothing. */
    static boolean sameMeasurement(Reading a, Reading b) {
        return a.flow() == b.flow()
                && a.lanes() == b.lanes()
                && Objects.equals(a.pctObserved(), b.pctObserved())
                && (a.speed() == null || b.speed() == null || a.speed().equals(b.speed()));
    }

    Iterable<Long> stations() {
        return kept.keySet();
    }

    /** The kept readings of a station, in time order. */
    List<SourcedReading> readings(long stationId) {
        NavigableMap<Instant, SourcedReading> station = kept.get(stationId);
        return station == null ? List.of() : List.copyOf(station.values());
    }

    int duplicates(long stationId) {
        return duplicates.getOrDefault(stationId, 0);
    }

    int conflicts(long stationId) {
        return conflicts.getOrDefault(stationId, 0);
    }

    int conflictCount() {
        return conflictCount;
    }

    List<Conflict> conflictExamples() {
        return Collections.unmodifiableList(conflictExamples);
    }

    Map<FilePair, Integer> duplicatesByFiles() {
        return Collections.unmodifiableMap(duplicatesByFiles);
    }
}
