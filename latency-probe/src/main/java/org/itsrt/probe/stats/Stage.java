package org.itsrt.probe.stats;

import org.itsrt.probe.arrival.Arrival;

/** The job's stages whose durations each advice record carries (docs/design.md, D2). */
public enum Stage {
    PARSE("parse"),
    INFER("infer"),
    ROUTE("route");

    private final String label;

    Stage(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The stage's duration in {@code arrival}, or {@link Arrival#ABSENT}. */
    public long of(Arrival arrival) {
        return switch (this) {
            case PARSE -> arrival.parseNs();
            case INFER -> arrival.inferNs();
            case ROUTE -> arrival.routeNs();
        };
    }
}
