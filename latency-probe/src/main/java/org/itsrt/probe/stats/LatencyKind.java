package org.itsrt.probe.stats;

import org.itsrt.probe.arrival.Arrival;

/** The two end-to-end latencies the probe measures for each record. */
public enum LatencyKind {
    /** Arrival minus the producer's send stamp. */
    FROM_SENT("from sent", "from_sent"),
    /** Arrival minus the open-loop schedule's intended send time (counts coordinated omission). */
    FROM_INTENDED("from intended", "from_intended");

    private final String label;
    private final String key;

    LatencyKind(String label, String key) {
        this.label = label;
        this.key = key;
    }

    /** Words for tables and plots. */
    public String label() {
        return label;
    }

    /** Name in summary.json and histogram-log tags. */
    public String key() {
        return key;
    }

    /** This latency of {@code arrival}, or {@link Arrival#ABSENT} when it has none. */
    public long of(Arrival arrival) {
        return this == FROM_SENT ? arrival.latencyFromSentNs() : arrival.latencyFromIntendedNs();
    }
}
