package org.itsrt.scheduling.cli;

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
