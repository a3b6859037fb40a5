package org.itsrt.scheduling.cli;

import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.budget.XenLimits;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A reservation given directly, and how the result is printed: the options {@code ./its budget}
 * and {@code ./its budget apply} share, declared once.
 */
final class ReservationOptions {

    @Option(
            names = "--budget-us",
            paramLabel = "C",
            description = "the budget, us: per vCPU (cgroup, RTDS) or per thread (SCHED_DEADLINE); with --period-us")
    Long budgetUs;

    @Mixin
    PeriodOption period = new PeriodOption();

    @Option(
            names = "--vcpus",
            paramLabel = "N",
            description = "vCPUs of the domain, each with the reservation; a cgroup's quota is N x budget (default: 2, "
                    + "the study's rt-vm)")
    int vcpus = 2;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            description = "what to print: text or json; ./its budget also compose, the Docker Compose override file "
                    + "that gives the reservation to the stack's TaskManager container (default: text)")
    String format = "text";

    /**
     * The reservation of --budget-us and --period-us, within Xen's limits as a row's would be.
     *
     * @param user what needs it, for the message: {@code --backend linux-cgroup}
     */
    Reservation given(CommandLine cmd, String user) {
        Long periodUs = period.one();
        if (budgetUs == null || periodUs == null) {
            throw new CommandLine.ParameterException(cmd, user + " needs --budget-us and --period-us, or --row");
        }
        if (budgetUs < 1 || budgetUs > periodUs) {
            throw new CommandLine.ParameterException(
                    cmd, "--budget-us must be in 1..--period-us (" + periodUs + "), got " + budgetUs);
        }
        if (periodUs > XenLimits.MAX_PERIOD_US) {
            throw new CommandLine.ParameterException(cmd, "--period-us must be at most " + XenLimits.MAX_PERIOD_US);
        }
        return new Reservation(budgetUs, periodUs);
    }

    /** What is wrong with the format or the vCPUs, naming the option; null when nothing is. */
    String problem(java.util.List<String> formats) {
        if (!formats.contains(format)) {
            String last = formats.get(formats.size() - 1);
            return "--format must be " + String.join(", ", formats.subList(0, formats.size() - 1)) + " or " + last
                    + ", got '" + format + "'";
        }
        return vcpus < 1 ? "--vcpus must be >= 1, got " + vcpus : null;
    }
}
