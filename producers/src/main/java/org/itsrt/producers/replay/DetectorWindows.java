package org.itsrt.producers.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StationHistory;
import org.itsrt.records.ReadingRecord;

/**
 * One detector's replay: every run of 12 consecutive 5-minute readings of the canonical table,
 * in time order, cycled when it runs out so a replay can last as long as asked. Windows that
 * would span a gap in the table are left out ({@link StationHistory} starts over after a gap): the
 * job reads a window as one unbroken hour.
 */
public final class DetectorWindows {

    private final long detector;
    private final List<Window> windows;
    private int next;

    private record Window(java.time.Instant newest, double[] flow, double[] speed) {}

    private DetectorWindows(long detector, List<Window> windows) {
        this.detector = detector;
        this.windows = windows;
    }

    /** Windows per detector, in the order asked; fails naming a detector the table lacks. */
    public static List<DetectorWindows> of(Collection<Reading> readings, List<Long> detectors) {
        Map<Long, TreeMap<java.time.Instant, Reading>> byStation = new LinkedHashMap<>();
        for (Reading r : readings) {
            byStation.computeIfAbsent(r.stationId(), k -> new TreeMap<>()).put(r.tsUtc(), r);
        }
        List<DetectorWindows> out = new ArrayList<>();
        for (long detector : detectors) {
            TreeMap<java.time.Instant, Reading> series = byStation.get(detector);
            if (series == null) {
                throw new IllegalArgumentException(
                        "detector " + detector + " has no readings in the table (it has " + byStation.keySet() + ")");
            }
            List<Window> windows = windowsOf(new ArrayList<>(series.values()));
            if (windows.isEmpty()) {
                throw new IllegalArgumentException("detector " + detector + " has no " + ReadingRecord.WINDOW
                        + " consecutive 5-minute readings in the table");
            }
            out.add(new DetectorWindows(detector, windows));
        }
        return out;
    }

    /** Every full window of the series, as {@link StationHistory} (the model's windowing rule) offers them. */
    private static List<Window> windowsOf(List<Reading> series) {
        List<Window> windows = new ArrayList<>();
        StationHistory history = new StationHistory(ReadingRecord.WINDOW);
        for (Reading reading : series) {
            history.add(reading);
            if (history.isFull()) {
                windows.add(new Window(history.newest(), history.flows(), history.speeds()));
            }
        }
        return windows;
    }

    public long detector() {
        return detector;
    }

    public int size() {
        return windows.size();
    }

    /** The next window as an unstamped record with the given sequence number. */
    public ReadingRecord next(long seq) {
        Window w = windows.get(next);
        next = next + 1 == windows.size() ? 0 : next + 1;
        return new ReadingRecord(detector, w.newest(), w.flow(), w.speed(), seq, 0, 0);
    }
}
