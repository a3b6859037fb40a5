package org.itsrt.probe.fault;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.itsrt.clock.LatencyClock;

/**
 * The fault marks of one run, safe to add to from any thread while the run consumes: the thread
 * that kills a process is never the one that polls.
 *
 * <p>A mark made here reads the latency clock directly. A mark known only by its wall-clock time
 * (a faults file written by another process) is placed on the latency clock through one pair of
 * readings of both clocks taken when this object was made; it is as exact as the wall clock
 * kept to the latency clock since then (milliseconds over a run of minutes).
 */
public final class FaultMarks {

    private final LatencyClock clock;
    private final Instant anchorWall;
    private final long anchorClockNs;
    private final List<FaultMark> marks = new ArrayList<>();

    public FaultMarks(LatencyClock clock) {
        this.clock = clock;
        this.anchorWall = Instant.now();
        this.anchorClockNs = clock.nanos();
    }

    /** Marks a fault now. */
    public FaultMark mark(String label) {
        // Wall clock first, latency clock last: the latency clock, the one compared with
        // arrivals, is read as close to the caller's fault as possible.
        Instant at = Instant.now();
        return add(new FaultMark(label, at, clock.nanos()));
    }

    /** Marks a fault that happened at wall-clock time {@code at}. */
    public FaultMark at(Instant at, String label) {
        return add(new FaultMark(
                label, at, anchorClockNs + Duration.between(anchorWall, at).toNanos()));
    }

    /**
     * Marks now as the end of {@code fault}, a mark of this run that lasts (a broker stopped and
     * started again): the report shows the window between the two.
     *
     * @return the mark with its end, which replaces {@code fault} among the marks
     * @throws IllegalArgumentException when {@code fault} is not a mark of this run or has ended
     */
    public FaultMark end(FaultMark fault) {
        Instant at = Instant.now();
        return replace(fault, fault.withEnd(new FaultMark.End(at, clock.nanos())));
    }

    private synchronized FaultMark replace(FaultMark fault, FaultMark ended) {
        for (int i = 0; i < marks.size(); i++) {
            FaultMark mark = marks.get(i);
            if (mark.clockNs() == fault.clockNs()
                    && mark.label().equals(fault.label())
                    && mark.at().equals(fault.at())) {
                if (mark.end() != null) {
                    throw new IllegalArgumentException("the fault '" + fault.label() + "' already ended at "
                            + mark.end().at());
                }
                marks.set(i, ended);
                return ended;
            }
        }
        throw new IllegalArgumentException(
                "'" + fault.label() + "' at " + fault.at() + " is not a fault marked in this run");
    }

    private synchronized FaultMark add(FaultMark mark) {
        marks.add(mark);
        return mark;
    }

    /** The marks so far, in time order. */
    public synchronized List<FaultMark> all() {
        List<FaultMark> sorted = new ArrayList<>(marks);
        sorted.sort(Comparator.comparingLong(FaultMark::clockNs));
        return List.copyOf(sorted);
    }
}
