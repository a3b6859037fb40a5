package org.itsrt.scheduling.cli;

import java.math.BigDecimal;
import java.util.List;
import org.itsrt.scheduling.budget.PoolCheck;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The cpupool a reservation must fit in: its pCPUs, the other reservations in it, and Dom0's. */
final class PoolOptions {

    @Option(
            names = "--pool-cpus",
            paramLabel = "M",
            description = "pCPUs of the cpupool the domain runs in; checks each vCPU <= 1 and the sum <= M")
    Integer poolCpus;

    @Option(
            names = "--other",
            split = ",",
            paramLabel = "U",
            description = "utilizations of the other vCPUs with reservations in the pool, one number per vCPU, "
                    + "e.g. 0.5,0.5,0.25")
    List<BigDecimal> others = List.of();

    @Option(
            names = "--dom0-vcpus",
            paramLabel = "K",
            defaultValue = "" + PoolCheck.DEFAULT_DOM0_VCPUS,
            description = "Dom0's vCPUs in the pool; 0 when the pool holds none (default: ${DEFAULT-VALUE})")
    int dom0Vcpus;

    @Option(
            names = "--dom0-utilization",
            paramLabel = "U",
            defaultValue = "0.4",
            description = "Dom0's utilization per vCPU (default: ${DEFAULT-VALUE}, Xen's RTDS default of 4000 us every "
                    + "10000 us, which Dom0 keeps unless changed)")
    BigDecimal dom0Utilization;

    /** The pool described, or null without --pool-cpus; a pool half described is refused naming its options. */
    PoolCheck.Pool pool(CommandLine cmd) {
        if (poolCpus == null
                && (!others.isEmpty()
                        || cmd.getParseResult().hasMatchedOption("--dom0-vcpus")
                        || cmd.getParseResult().hasMatchedOption("--dom0-utilization"))) {
            throw new CommandLine.ParameterException(
                    cmd, "--other, --dom0-vcpus and --dom0-utilization describe the " + "pool: give --pool-cpus too");
        }
        if (poolCpus != null && poolCpus < 1) {
            throw new CommandLine.ParameterException(cmd, "--pool-cpus must be >= 1, got " + poolCpus);
        }
        if (dom0Vcpus < 0) {
            throw new CommandLine.ParameterException(cmd, "--dom0-vcpus must be >= 0, got " + dom0Vcpus);
        }
        return poolCpus == null ? null : new PoolCheck.Pool(poolCpus, others, dom0Vcpus, dom0Utilization);
    }
}
