package org.itsrt.routing;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The network-wide traffic state: the latest {@link DetectorConditions} per detector, keyed by
 * VDS id. A detector with no entry is {@link DetectorConditions#UNKNOWN}.
 *
 * <p>A plain mutable holder with no shared or static parts, meant to be copied into and out of
 * a stream processor's keyed or operator state ({@link #asMap()}, {@link #TrafficState(Map)}).
 * Not thread-safe.
 */
public final class TrafficState {

    private final Map<Long, DetectorConditions> conditionsByVdsId;

    /** An empty state: nothing known at any detector. */
    public TrafficState() {
        this.conditionsByVdsId = new HashMap<>();
    }

    /** A state holding a copy of the given entries. */
    public TrafficState(Map<Long, DetectorConditions> conditionsByVdsId) {
        this.conditionsByVdsId = new HashMap<>();
        conditionsByVdsId.forEach((vdsId, conditions) -> put(Objects.requireNonNull(vdsId, "VDS id"), conditions));
    }

    /** Replaces what is known at one detector. */
    public void put(long vdsId, DetectorConditions conditions) {
        conditionsByVdsId.put(vdsId, Objects.requireNonNull(conditions, "conditions"));
    }

    /** What is known at one detector; {@link DetectorConditions#UNKNOWN} if nothing. */
    public DetectorConditions get(long vdsId) {
        return conditionsByVdsId.getOrDefault(vdsId, DetectorConditions.UNKNOWN);
    }

    /** A read-only snapshot of all entries. */
    public Map<Long, DetectorConditions> asMap() {
        return Map.copyOf(conditionsByVdsId);
    }

    public TrafficState copy() {
        return new TrafficState(conditionsByVdsId);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TrafficState that && conditionsByVdsId.equals(that.conditionsByVdsId);
    }

    @Override
    public int hashCode() {
        return conditionsByVdsId.hashCode();
    }

    @Override
    public String toString() {
        return "TrafficState" + conditionsByVdsId;
    }
}
