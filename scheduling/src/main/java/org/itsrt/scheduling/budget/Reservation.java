package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A periodic CPU reservation: {@code budgetUs} microseconds of CPU in every {@code periodUs}, for one
 * vCPU (RTDS) or one thread (SCHED_DEADLINE). A whole group of N vCPUs gets N times the budget.
 */
public record Reservation(long budgetUs, long periodUs) {

    public Reservation {
        if (periodUs <= 0) {
            throw new IllegalArgumentException("period must be > 0 us, got " + periodUs);
        }
        if (budgetUs <= 0 || budgetUs > periodUs) {
            throw new IllegalArgumentException(
                    "budget must be in 1.." + periodUs + " us (the period), got " + budgetUs);
        }
    }

    /** budget / period, exact to 12 significant digits so that reports and checks agree. */
    public BigDecimal utilization() {
        return BigDecimal.valueOf(budgetUs).divide(BigDecimal.valueOf(periodUs), MathContext.DECIMAL64);
    }

    /**
     * The longest time a vCPU with work to do can wait for the CPU: the budget spent at the start of one
     * period and delivered at the very end of the next leaves 2 (T - C) without service.
     */
    public long worstCaseDelayUs() {
        return 2 * (periodUs - budgetUs);
    }
}
