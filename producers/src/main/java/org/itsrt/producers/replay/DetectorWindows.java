package org.itsrt.producers.replay;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StationHistory;
import org.itsrt.records.ReadingRecord;

/**
 * One detector's replay: every run of 12 consecutive 5-minute readings of the canonical table,
 * in time order, cycled when it runs out so a replay can last as long as asked. Windows that
 * would span a gap in the table are left out ({@link StationHistory} starts over after a gap): the
 * job reads a window as one unbroken hour.
 *
 * <p>Held as primitive arrays, one entry per reading, and a window as the index of its newest
 * reading: about 24 bytes per reading, where a {@code Reading} object per row, or two 12-value
 * arrays per window, take ten times that. A district of 4,800 detectors holds a day of readings
 * (1.4 million) in about 35 MB (docs/producers.md, "Many detectors"). A window's arrays are copied
 * out only when its record is made.
 */
public final class DetectorWindows {

    /** Stations named in a refusal before the list is cut short. */
    private static final int NAMED_STATIONS = 10;

    private final long detector;
    private final double[] flow;
    private final double[] speed;
    /** Each reading's 5-minute interval since the epoch: its start is {@code interval * 300 s}. */
    private final int[] interval;
    /** Each window's newest reading; the window is the {@link ReadingRecord#WINDOW} readings up to it. */
    private final int[] windowEnds;

    private DetectorWindows(long detector, double[] flow, double[] speed, int[] interval, int[] windowEnds) {
        this.detector = detector;
        this.flow = flow;
        this.speed = speed;
        this.interval = interval;
        this.windowEnds = windowEnds;
    }

    /**
     * Windows per detector from a canonical table, in the order asked, reading the table row by
     * row and keeping only the detectors asked for.
     *
     * @throws IOException              when the table cannot be read
     * @throws IllegalArgumentException naming a detector the table lacks or that has no window
     */
    public static List<DetectorWindows> read(Path table, List<Long> detectors) throws IOException {
        Collector collector = new Collector(detectors);
        CanonicalTable.forEach(table, collector);
        return collector.windows();
    }

    /**
     * Windows of every detector of a canonical table, in the order the table first names them: a
     * district's thousands of detectors without listing their ids.
     *
     * @throws IOException              when the table cannot be read
     * @throws IllegalArgumentException naming a detector that has no window, or a table without readings
     */
    public static List<DetectorWindows> readAll(Path table) throws IOException {
        Collector collector = new Collector(null);
        CanonicalTable.forEach(table, collector);
        if (collector.stations.isEmpty()) {
            throw new IllegalArgumentException("the table has no readings");
        }
        return collector.windows();
    }

    /** Windows per detector, in the order asked; fails naming a detector the readings lack. */
    public static List<DetectorWindows> of(Collection<Reading> readings, List<Long> detectors) {
        List<Reading> ordered = new ArrayList<>(readings);
        ordered.sort(CanonicalTable.ORDER);
        Collector collector = new Collector(detectors);
        ordered.forEach(collector);
        return collector.windows();
    }

    public long detector() {
        return detector;
    }

    /** How many windows the detector has; the replay cycles through them. */
    public int size() {
        return windowEnds.length;
    }

    /** The bytes the detector's readings take in arrays: what a replay of many detectors holds. */
    public long arrayBytes() {
        return 8L * flow.length + 8L * speed.length + 4L * interval.length + 4L * windowEnds.length;
    }

    /**
     * The record with sequence number {@code seq}, unstamped: window {@code seq} modulo
     * {@link #size()}, so the windows cycle in time order.
     */
    public ReadingRecord record(long seq) {
        int end = windowEnds[(int) (seq % windowEnds.length)];
        int from = end - ReadingRecord.WINDOW + 1;
        Instant newest = Instant.ofEpochSecond(interval[end] * Reading.INTERVAL.toSeconds());
        return new ReadingRecord(
                detector,
                newest,
                Arrays.copyOfRange(flow, from, end + 1),
                Arrays.copyOfRange(speed, from, end + 1),
                seq,
                0,
                0);
    }

    /** Takes the readings of the detectors asked for, each station's in time order. */
    private static final class Collector implements Consumer<Reading> {
        /** The detectors asked for; null for every detector of the table. */
        private final List<Long> asked;

        private final Map<Long, Builder> builders = new HashMap<>();
        private final Set<Long> stations = new LinkedHashSet<>();

        Collector(List<Long> asked) {
            this.asked = asked;
            if (asked != null) {
                for (long detector : asked) {
                    builders.putIfAbsent(detector, new Builder(detector));
                }
            }
        }

        @Override
        public void accept(Reading reading) {
            stations.add(reading.stationId());
            Builder builder = asked == null
                    ? builders.computeIfAbsent(reading.stationId(), Builder::new)
                    : builders.get(reading.stationId());
            if (builder != null) {
                builder.add(reading);
            }
        }

        List<DetectorWindows> windows() {
            Map<Long, DetectorWindows> built = new HashMap<>();
            List<Long> detectors = asked != null ? asked : List.copyOf(stations);
            List<DetectorWindows> out = new ArrayList<>(detectors.size());
            for (long detector : detectors) {
                Builder builder = builders.get(detector);
                if (builder.readings == 0) {
                    throw new IllegalArgumentException(
                            "detector " + detector + " has no readings in the table (it has " + named() + ")");
                }
                if (builder.windows == 0) {
                    throw new IllegalArgumentException("detector " + detector + " has no " + ReadingRecord.WINDOW
                            + " consecutive 5-minute readings in the table");
                }
                // A detector asked twice is replayed twice, from one copy of its readings.
                out.add(built.computeIfAbsent(detector, d -> builder.build()));
            }
            return out;
        }

        private String named() {
            String first = stations.stream()
                    .limit(NAMED_STATIONS)
                    .map(String::valueOf)
                    .collect(Collectors.joining(", ", "[", ""));
            return stations.size() <= NAMED_STATIONS
                    ? first + "]"
                    : first + ", ... " + stations.size() + " stations in all]";
        }
    }

    /** Grows one detector's arrays reading by reading, cutting windows by the model's windowing rule. */
    private static final class Builder {
        private final long detector;
        private final StationHistory history = new StationHistory(ReadingRecord.WINDOW);
        private double[] flow = new double[ReadingRecord.WINDOW * 24];
        private double[] speed = new double[flow.length];
        private int[] interval = new int[flow.length];
        private int[] windowEnds = new int[flow.length];
        private int readings;
        private int windows;

        Builder(long detector) {
            this.detector = detector;
        }

        void add(Reading reading) {
            history.add(reading);
            if (readings == flow.length) {
                int grown = flow.length * 2;
                flow = Arrays.copyOf(flow, grown);
                speed = Arrays.copyOf(speed, grown);
                interval = Arrays.copyOf(interval, grown);
                windowEnds = Arrays.copyOf(windowEnds, grown);
            }
            flow[readings] = reading.flow();
            speed[readings] = reading.hasSpeed() ? reading.speed() : Double.NaN;
            interval[readings] = Math.toIntExact(reading.tsUtc().getEpochSecond() / Reading.INTERVAL.toSeconds());
            if (history.isFull()) {
                windowEnds[windows++] = readings;
            }
            readings++;
        }

        DetectorWindows build() {
            return new DetectorWindows(
                    detector,
                    Arrays.copyOf(flow, readings),
                    Arrays.copyOf(speed, readings),
                    Arrays.copyOf(interval, readings),
                    Arrays.copyOf(windowEnds, windows));
        }
    }
}
