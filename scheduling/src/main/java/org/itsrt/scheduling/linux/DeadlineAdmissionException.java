package org.itsrt.scheduling.linux;

/**
 * The kernel refused a SCHED_DEADLINE reservation with EBUSY: admitting it would put the deadline
 * bandwidth of the root domain over its limit, {@code sched_rt_runtime_us / sched_rt_period_us} of each
 * CPU (95% by default). The numbers say by how much.
 */
public final class DeadlineAdmissionException extends SchedulingException {

    private final double requested;
    private final double alreadyReserved;
    private final double limit;

    DeadlineAdmissionException(String message, double requested, double alreadyReserved, double limit) {
        super(message);
        this.requested = requested;
        this.alreadyReserved = alreadyReserved;
        this.limit = limit;
    }

    /** CPUs' worth this reservation asked for in all (threads x runtime / period). */
    public double requested() {
        return requested;
    }

    /** CPUs' worth other deadline threads held when it was refused. */
    public double alreadyReserved() {
        return alreadyReserved;
    }

    /** CPUs' worth the kernel admits in all; infinite when admission control is off. */
    public double limit() {
        return limit;
    }
}
