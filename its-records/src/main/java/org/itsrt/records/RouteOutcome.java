package org.itsrt.records;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the job answered a route request ({@link RouteRecord}), written as its {@link #wire()} name.
 * Only {@link #ROUTED} carries a route and a travel time; every other outcome has the route
 * {@code []} and the travel time {@code null}.
 */
public enum RouteOutcome {
    /** A route was found: the record carries it and its predicted travel time. */
    ROUTED("routed"),
    /** Both stations are in the graph but no path leads from the origin to the destination. */
    UNREACHABLE("unreachable"),
    /**
     * The request's deadline had passed when it reached the routing step: answered at once, not
     * routed, so that a late request costs no search and still gets an answer (docs/deadlines.md).
     */
    EXPIRED("expired");

    private final String wire;

    RouteOutcome(String wire) {
        this.wire = wire;
    }

    /** The name on the wire, e.g. {@code routed}. */
    public String wire() {
        return wire;
    }

    /** The outcome of a wire name, or {@code null} when there is none. */
    public static RouteOutcome ofWire(String name) {
        for (RouteOutcome outcome : values()) {
            if (outcome.wire.equals(name)) {
                return outcome;
            }
        }
        return null;
    }

    /** Every wire name, for messages: {@code routed, unreachable}. */
    public static String wireNames() {
        return Arrays.stream(values()).map(RouteOutcome::wire).collect(Collectors.joining(", "));
    }
}
