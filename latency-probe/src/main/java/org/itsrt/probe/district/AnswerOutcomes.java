package org.itsrt.probe.district;

import java.util.EnumMap;
import java.util.Map;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.records.RouteOutcome;

/**
 * The answers on {@code its.routes} by outcome ({@link RouteOutcome}): how many of each arrived and
 * the latency of each apart, so an unreachable answer (found fast or slow, by exhausting the graph)
 * is never measured as a routed one. Every outcome the records know is counted, those added later
 * too; the routes stream's own figures cover all answers, whatever their outcome.
 */
public final class AnswerOutcomes {

    /** One outcome's counts: answers received (duplicates included), of them warm-up, and the measured ones' latencies. */
    public static final class Counts {
        private long answers;
        private long warmup;
        private final Map<LatencyKind, LatencyHistogram> latency = new EnumMap<>(LatencyKind.class);

        private Counts() {
            for (LatencyKind kind : LatencyKind.values()) {
                latency.put(kind, new LatencyHistogram());
            }
        }

        /** Answers of this outcome received, warm-up and duplicates included. */
        public long answers() {
            return answers;
        }

        /** Of them, answers to warm-up requests: not measured. */
        public long warmup() {
            return warmup;
        }

        /** The measured answers' latencies of one kind. */
        public LatencyHistogram latency(LatencyKind kind) {
            return latency.get(kind);
        }
    }

    private final Map<RouteOutcome, Counts> byOutcome = new EnumMap<>(RouteOutcome.class);

    public AnswerOutcomes() {
        for (RouteOutcome outcome : RouteOutcome.values()) {
            byOutcome.put(outcome, new Counts());
        }
    }

    /** An answer of {@code outcome}, stamped on arrival. */
    public void arrived(RouteOutcome outcome, Arrival arrival) {
        Counts counts = byOutcome.get(outcome);
        counts.answers++;
        if (arrival.warmup()) {
            counts.warmup++;
            return;
        }
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency != Arrival.ABSENT) {
                counts.latency.get(kind).record(latency);
            }
        }
    }

    /** The counts of one outcome. */
    public Counts of(RouteOutcome outcome) {
        return byOutcome.get(outcome);
    }

    /** Answers of every outcome. */
    public long answers() {
        return byOutcome.values().stream().mapToLong(Counts::answers).sum();
    }
}
