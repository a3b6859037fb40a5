package org.itsrt.producers.send;

/**
 * Intended send times fixed in advance (as in wrk2 and the OpenMessaging Benchmark): record k of
 * a detector is due at {@code start + offset + k * period} whatever happened to record k-1. A
 * producer that stalls sends late, and the probe sees that lateness by measuring from the
 * intended time: a stall cannot hide latency (coordinated omission).
 */
public record OpenLoopSchedule(long startNs, long offsetNs, long periodNs) {

    public OpenLoopSchedule {
        if (periodNs <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNs);
        }
    }

    /**
     * Detector {@code index} of {@code count}, all at the same rate, spread evenly over one period
     * so that their sends do not all fall on the same instant.
     */
    public static OpenLoopSchedule staggered(long startNs, double ratePerSecond, int index, int count) {
        long period = Math.round(1e9 / ratePerSecond);
        return new OpenLoopSchedule(startNs, period * index / count, period);
    }

    public long intendedNs(long k) {
        return startNs + offsetNs + k * periodNs;
    }
}
