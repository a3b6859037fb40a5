package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Tableau's rule for turning "this vCPU needs utilization U and may wait at most L" into a periodic
 * reservation: a budget C = U T in every period T delays the vCPU by at most 2 (T - C) = 2 (1 - U) T, so
 * take the largest candidate period with 2 (1 - U) T <= L. The largest one, because a longer period
 * means fewer scheduling decisions and context switches for the same share.
 *
 * <p>The budget is rounded up to a whole microsecond, so the vCPU never gets less than U (and the delay
 * only shrinks), and raised to Xen's 10 us minimum when U T is shorter. Arithmetic is exact decimal:
 * 0.7675 x 100000 is 76750, not 76750.00000001 rounded up to 76751.
 */
public final class TableauRule {

    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    private TableauRule() {}

    /** The chosen reservation and how it was chosen. */
    public record Choice(
            Reservation reservation,
            BigDecimal requestedUtilization,
            long maxLatencyUs,
            BigDecimal delayBoundUs,
            String candidates,
            List<String> notes) {}

    /**
     * @param utilization share of one CPU per vCPU, in (0, 1]
     * @param maxLatencyUs the largest scheduling delay allowed, us, >= 0
     */
    public static Choice choose(BigDecimal utilization, long maxLatencyUs, PeriodCandidates candidates)
            throws BudgetRefusal {
        if (utilization.signum() <= 0 || utilization.compareTo(BigDecimal.ONE) > 0) {
            throw new IllegalArgumentException("utilization must be in (0, 1], got " + utilization.toPlainString());
        }
        if (maxLatencyUs < 0) {
            throw new IllegalArgumentException("max latency must be >= 0 us, got " + maxLatencyUs);
        }
        BigDecimal slope = TWO.multiply(BigDecimal.ONE.subtract(utilization)); // delay per us of period
        BigDecimal latency = BigDecimal.valueOf(maxLatencyUs);
        long[] periods = candidates.periodsUs();
        for (int i = periods.length - 1; i >= 0; i--) {
            long t = periods[i];
            BigDecimal bound = slope.multiply(BigDecimal.valueOf(t));
            if (bound.compareTo(latency) <= 0) {
                return choice(utilization, maxLatencyUs, t, bound, candidates);
            }
        }
        long smallest = candidates.smallestUs();
        BigDecimal needed = slope.multiply(BigDecimal.valueOf(smallest)).setScale(0, RoundingMode.CEILING);
        // Here U < 1 (with U = 1 every period fits), so the slope is positive.
        long longestFitting = latency.divide(slope, 0, RoundingMode.FLOOR).longValueExact();
        throw new BudgetRefusal(
                "latency",
                String.format(
                        "no candidate period meets a max latency of %d us at utilization %s: even the smallest candidate, "
                                + "%d us, can delay a vCPU by 2(1-U)T = %s us, over by %s us; the smallest max latency that "
                                + "works with these candidates is %s us%s",
                        maxLatencyUs,
                        utilization.toPlainString(),
                        smallest,
                        slope.multiply(BigDecimal.valueOf(smallest))
                                .stripTrailingZeros()
                                .toPlainString(),
                        slope.multiply(BigDecimal.valueOf(smallest))
                                .subtract(latency)
                                .stripTrailingZeros()
                                .toPlainString(),
                        needed.toPlainString(),
                        longestFitting >= XenLimits.MIN_PERIOD_US
                                ? ", or add a candidate period of at most " + longestFitting + " us"
                                : " (a period short enough for " + maxLatencyUs
                                        + " us would be below Xen's 10 us minimum)"));
    }

    private static Choice choice(
            BigDecimal utilization, long maxLatencyUs, long periodUs, BigDecimal bound, PeriodCandidates candidates) {
        List<String> notes = new ArrayList<>();
        BigDecimal exact = utilization.multiply(BigDecimal.valueOf(periodUs));
        long budget = exact.setScale(0, RoundingMode.CEILING).longValueExact();
        if (exact.compareTo(BigDecimal.valueOf(budget)) != 0) {
            notes.add("budget " + exact.stripTrailingZeros().toPlainString() + " us rounded up to " + budget
                    + " us so that the vCPU gets at least utilization " + utilization.toPlainString());
        }
        if (budget < XenLimits.MIN_BUDGET_US) {
            notes.add("budget " + budget + " us raised to Xen's minimum of " + XenLimits.MIN_BUDGET_US
                    + " us: the vCPU gets utilization "
                    + BigDecimal.valueOf(XenLimits.MIN_BUDGET_US)
                            .divide(BigDecimal.valueOf(periodUs), MathContext.DECIMAL64)
                            .stripTrailingZeros()
                            .toPlainString()
                    + " instead of " + utilization.toPlainString());
            budget = XenLimits.MIN_BUDGET_US;
        }
        return new Choice(
                new Reservation(budget, periodUs),
                utilization,
                maxLatencyUs,
                bound.stripTrailingZeros(),
                candidates.description(),
                List.copyOf(notes));
    }
}
