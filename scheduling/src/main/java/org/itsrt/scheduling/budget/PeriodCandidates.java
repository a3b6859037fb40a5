package org.itsrt.scheduling.budget;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The periods the Tableau rule may choose from. Tableau takes the divisors of one hyperperiod so that any
 * mix of chosen periods repeats within it (102,702,600 ns there, a table-length bound). That value has no
 * divisor in whole microseconds, the unit of Xen's and Linux's interfaces, so the default here is the
 * divisors of 100,800 us (2^6 3^2 5^2 7): close to Tableau's ~102.7 ms and to the study's 100 ms period,
 * and with 126 divisors (117 of them at least Xen's 10 us minimum; the rest are left out) dense enough that
 * the rule rarely has to fall far below the largest period the latency bound allows.
 */
public final class PeriodCandidates {

    public static final long DEFAULT_HYPERPERIOD_US = 100_800;

    private final long[] ascendingUs;
    private final String description;

    private PeriodCandidates(long[] ascendingUs, String description) {
        this.ascendingUs = ascendingUs;
        this.description = description;
    }

    public static PeriodCandidates defaults() {
        return divisorsOf(DEFAULT_HYPERPERIOD_US);
    }

    /** Every divisor of the hyperperiod that Xen accepts as a period (10 us and up). */
    public static PeriodCandidates divisorsOf(long hyperperiodUs) {
        if (hyperperiodUs < XenLimits.MIN_PERIOD_US || hyperperiodUs > XenLimits.MAX_PERIOD_US) {
            throw new IllegalArgumentException(
                    "hyperperiod " + hyperperiodUs + " us is outside Xen RTDS's period range " + XenLimits.MIN_PERIOD_US
                            + ".." + XenLimits.MAX_PERIOD_US + " us");
        }
        TreeSet<Long> divisors = new TreeSet<>();
        for (long d = 1; d * d <= hyperperiodUs; d++) {
            if (hyperperiodUs % d == 0) {
                divisors.add(d);
                divisors.add(hyperperiodUs / d);
            }
        }
        divisors.removeIf(d -> d < XenLimits.MIN_PERIOD_US);
        return new PeriodCandidates(
                divisors.stream().mapToLong(Long::longValue).toArray(),
                "divisors of " + hyperperiodUs + " us (" + divisors.size() + " periods from " + divisors.first()
                        + " us)");
    }

    /** Exactly these periods; each must be a period Xen accepts. */
    public static PeriodCandidates of(Collection<Long> periodsUs) {
        if (periodsUs.isEmpty()) {
            throw new IllegalArgumentException("no candidate period given");
        }
        List<Long> outside = new ArrayList<>();
        TreeSet<Long> sorted = new TreeSet<>();
        for (long p : periodsUs) {
            if (p < XenLimits.MIN_PERIOD_US || p > XenLimits.MAX_PERIOD_US) {
                outside.add(p);
            }
            sorted.add(p);
        }
        if (!outside.isEmpty()) {
            throw new IllegalArgumentException("candidate period(s) " + outside + " us outside Xen RTDS's range "
                    + XenLimits.MIN_PERIOD_US + ".." + XenLimits.MAX_PERIOD_US + " us");
        }
        return new PeriodCandidates(
                sorted.stream().mapToLong(Long::longValue).toArray(), "given periods " + sorted + " us");
    }

    /** Ascending. */
    public long[] periodsUs() {
        return ascendingUs.clone();
    }

    public long smallestUs() {
        return ascendingUs[0];
    }

    public long largestUs() {
        return ascendingUs[ascendingUs.length - 1];
    }

    public int size() {
        return ascendingUs.length;
    }

    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return description + " " + Arrays.toString(ascendingUs);
    }
}
