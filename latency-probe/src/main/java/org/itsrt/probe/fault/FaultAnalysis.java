package org.itsrt.probe.fault;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.SequenceTracker;

/**
 * What each fault did to the advice stream, from a run's arrivals in arrival order and its fault
 * marks (docs/latency-probe.md, "Faults").
 *
 * <p>A fault's span runs from its mark to the next mark, or to the end of the run; every arrival
 * belongs to the span it falls in, so two faults never count one record twice. Times are poll
 * stamps: all records of one poll share one arrival stamp, so "the first arrival after" is a poll.
 *
 * <ul>
 *   <li><b>gap</b>: the last arrival before the mark to the first arrival at or after it, the
 *       outage as the consumer sees it when the fault stops the job at once;</li>
 *   <li><b>silence</b>: the longest gap between two consecutive arrivals that ends at or after the
 *       mark and starts before the next mark. It includes the gap, and also catches an outage that
 *       begins a while after the mark (the job runs on until a lost TaskManager's heartbeat times
 *       out, a broker's partitions move);</li>
 *   <li><b>disturbed</b> from the first record of the span whose latency exceeds the SLO;</li>
 *   <li><b>recovered</b> at the first poll after that from which every record, for at least one
 *       SLO window (up to a poll at least a window later), is within the SLO. Recovery time is
 *       from the mark; 0 when no record of the span exceeded the SLO; none when the span ends
 *       (next mark, end of run) first or nothing arrived after the mark;</li>
 *   <li><b>delayed</b>: records over the SLO from the mark until recovery (or the span's end);
 *       <b>peak latency</b> the largest latency among the records of that stretch;</li>
 *   <li><b>duplicated</b>: records of the span whose (detector, seq) had arrived before, as
 *       {@link SequenceTracker} counts them, in all and per detector.</li>
 * </ul>
 *
 * A fault that lasts (a broker stopped and started again) has an end besides its mark
 * ({@link FaultMark#end()}): the end does not begin a span of its own, so the span's silence is
 * the outage across the whole window, and recovery is given both from the mark and from the end.
 *
 * <p>Latency is of one kind (the run's primary one); a record without that kind is judged on its
 * latency from sent. The longest silence of the whole run is kept too, so that a fault nobody
 * marked still shows.
 */
public final class FaultAnalysis implements ArrivalSink {

    /** A stretch without arrivals, on the latency clock: from one poll's stamp to the next one's. */
    public record Silence(long startNs, long lengthNs) {
        public long endNs() {
            return startNs + lengthNs;
        }
    }

    /**
     * One fault's effect. Times are on the latency clock; null where there is no value.
     *
     * @param lastBeforeNs         the last arrival before the mark
     * @param firstAfterNs         the first arrival at or after the mark
     * @param silence              the longest silence of the span (see the class comment)
     * @param delayed              records over the SLO from the mark until recovery
     * @param peakLatencyNs        the largest latency from the mark until recovery; null when no
     *                             record exceeded the SLO
     * @param recoveryNs           the mark to recovery; 0 when no record of the span exceeded the
     *                             SLO; null when latency did not recover within the span
     * @param duplicated           duplicates that arrived in the span
     * @param duplicatedByDetector those per detector id, only detectors that had any, by id
     */
    public record Fault(
            FaultMark mark,
            Long lastBeforeNs,
            Long firstAfterNs,
            Silence silence,
            long delayed,
            Long peakLatencyNs,
            Long recoveryNs,
            long duplicated,
            Map<Long, Long> duplicatedByDetector) {

        /** {@code firstAfterNs - lastBeforeNs}, null unless both exist. */
        public Long gapNs() {
            return lastBeforeNs == null || firstAfterNs == null ? null : firstAfterNs - lastBeforeNs;
        }

        /**
         * For a fault with an end: from the end (the broker back) to recovery, the pipeline's own
         * share of the outage; 0 when latency recovered before the end; null without an end or
         * without recovery.
         */
        public Long recoveryAfterEndNs() {
            if (mark.end() == null || recoveryNs == null) {
                return null;
            }
            return Math.max(0, mark.clockNs() + recoveryNs - mark.end().clockNs());
        }
    }

    /**
     * @param faults         one per mark, in time order
     * @param largestSilence the longest gap between two consecutive arrivals of the whole run;
     *                       null with fewer than two polls that returned records
     */
    public record Result(List<Fault> faults, Silence largestSilence) {

        /** A run without marks and arrivals. */
        public static Result none() {
            return new Result(List.of(), null);
        }
    }

    private enum Phase {
        /** No record of the span exceeded the SLO yet. */
        UNDISTURBED,
        DISTURBED,
        RECOVERED
    }

    private static final long NONE = Long.MIN_VALUE;

    private static final class Span {
        final FaultMark mark;
        long lastBeforeNs = NONE;
        long firstAfterNs = NONE;
        Silence silence;
        Phase phase = Phase.UNDISTURBED;
        long delayed;
        long peakNs = NONE;
        long lastOverNs = NONE;
        long streakStartNs = NONE;
        boolean streakLongEnough;
        long recoveredAtNs = NONE;
        long records;
        long duplicated;
        final Map<Long, Long> duplicatedByDetector = new TreeMap<>();

        Span(FaultMark mark) {
            this.mark = mark;
        }
    }

    private final List<Span> spans = new ArrayList<>();
    private final LatencyKind kind;
    private final long sloNs;
    private final long windowNs;
    private final SequenceTracker sequences = new SequenceTracker();
    /** Marks at or before the current poll's stamp: spans 0 .. passed-1 have begun. */
    private int passed;

    private boolean anyArrival;
    private long pollNs;
    private Silence largest;

    /**
     * @param marks    the run's marks, in any order
     * @param kind     the latency judged against the SLO
     * @param sloNs    a record over this is delayed
     * @param windowNs how long latency must stay within the SLO to count as recovered
     */
    public FaultAnalysis(List<FaultMark> marks, LatencyKind kind, long sloNs, long windowNs) {
        List<FaultMark> sorted = new ArrayList<>(marks);
        sorted.sort(java.util.Comparator.comparingLong(FaultMark::clockNs));
        for (FaultMark mark : sorted) {
            spans.add(new Span(mark));
        }
        this.kind = kind;
        this.sloNs = sloNs;
        this.windowNs = windowNs;
    }

    @Override
    public void arrived(Arrival a) {
        // Arrivals come from one monotonic clock in arrival order; an earlier stamp is kept in the
        // current poll rather than reordering time.
        long t = anyArrival ? Math.max(a.arrivalNs(), pollNs) : a.arrivalNs();
        if (!anyArrival || t > pollNs) {
            newPoll(t);
        }
        SequenceTracker.Outcome outcome = sequences.record(a.detector(), a.seq());
        if (passed == 0) {
            return;
        }
        Span span = spans.get(passed - 1);
        span.records++;
        if (outcome == SequenceTracker.Outcome.DUPLICATE) {
            span.duplicated++;
            span.duplicatedByDetector.merge(a.detector(), 1L, Long::sum);
        }
        if (span.phase == Phase.RECOVERED) {
            return;
        }
        long latency = kind.of(a);
        if (latency == Arrival.ABSENT) {
            latency = a.latencyFromSentNs();
        }
        span.peakNs = Math.max(span.peakNs, latency);
        if (latency > sloNs) {
            span.phase = Phase.DISTURBED;
            span.delayed++;
            span.lastOverNs = t;
            span.streakStartNs = NONE;
            span.streakLongEnough = false;
        } else if (span.phase == Phase.DISTURBED && t > span.lastOverNs) {
            if (span.streakStartNs == NONE) {
                span.streakStartNs = t;
            }
            // Confirmed only once this poll is over: a later record of the same poll may still
            // be over the SLO.
            span.streakLongEnough = t - span.streakStartNs >= windowNs;
        }
    }

    private void newPoll(long t) {
        closePoll();
        int before = passed;
        while (passed < spans.size() && spans.get(passed).mark.clockNs() <= t) {
            Span span = spans.get(passed);
            span.lastBeforeNs = anyArrival ? pollNs : NONE;
            span.firstAfterNs = t;
            passed++;
        }
        if (anyArrival) {
            Silence gap = new Silence(pollNs, t - pollNs);
            if (largest == null || gap.lengthNs() > largest.lengthNs()) {
                largest = gap;
            }
            // The spans whose mark is at or before t and whose next mark is after the previous poll.
            for (int i = Math.max(0, before - 1); i < passed; i++) {
                Span span = spans.get(i);
                if (span.silence == null || gap.lengthNs() > span.silence.lengthNs()) {
                    span.silence = gap;
                }
            }
        }
        anyArrival = true;
        pollNs = t;
    }

    private void closePoll() {
        if (passed == 0) {
            return;
        }
        Span span = spans.get(passed - 1);
        if (span.phase == Phase.DISTURBED && span.streakLongEnough) {
            span.phase = Phase.RECOVERED;
            span.recoveredAtNs = span.streakStartNs;
        }
    }

    @Override
    public void finish() {
        closePoll();
    }

    /** The faults and the run's longest silence; call after the last arrival and {@link #finish()}. */
    public Result result() {
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            Span s = spans.get(i);
            // A mark after the last arrival: everything arrived before it.
            Long lastBefore = i < passed ? value(s.lastBeforeNs) : anyArrival ? pollNs : null;
            Long recovery =
                    switch (s.phase) {
                        case UNDISTURBED -> s.records > 0 ? 0L : null;
                        case DISTURBED -> null;
                        case RECOVERED -> s.recoveredAtNs - s.mark.clockNs();
                    };
            faults.add(new Fault(
                    s.mark,
                    lastBefore,
                    value(s.firstAfterNs),
                    s.silence,
                    s.delayed,
                    s.phase == Phase.UNDISTURBED ? null : s.peakNs,
                    recovery,
                    s.duplicated,
                    Collections.unmodifiableMap(new TreeMap<>(s.duplicatedByDetector))));
        }
        return new Result(List.copyOf(faults), largest);
    }

    private static Long value(long ns) {
        return ns == NONE ? null : ns;
    }
}
