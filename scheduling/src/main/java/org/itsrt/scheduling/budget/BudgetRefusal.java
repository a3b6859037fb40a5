package org.itsrt.scheduling.budget;

/**
 * A budget that cannot be given: no candidate period meets the latency bound, or the pool cannot hold
 * the reservations. The message names the constraint and by how much it is missed.
 */
public final class BudgetRefusal extends Exception {

    private final String constraint;

    public BudgetRefusal(String constraint, String message) {
        super(message);
        this.constraint = constraint;
    }

    /** A short key of the failed constraint, e.g. {@code latency}, {@code pool-sum}, {@code vcpu-utilization}. */
    public String constraint() {
        return constraint;
    }
}
