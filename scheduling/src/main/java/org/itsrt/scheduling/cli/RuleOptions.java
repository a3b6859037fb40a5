package org.itsrt.scheduling.cli;

import java.math.BigDecimal;
import java.util.List;
import org.itsrt.scheduling.budget.PeriodCandidates;
import picocli.CommandLine.Option;

/**
 * What Tableau's rule chooses a reservation from: the share of a CPU each vCPU needs, the longest
 * it may wait, and the periods it may pick.
 */
final class RuleOptions {

    @Option(
            names = "--utilization",
            paramLabel = "U",
            description = "share of one CPU each vCPU needs, in (0, 1]; with --max-latency-us")
    BigDecimal utilization;

    @Option(
            names = "--max-latency-us",
            paramLabel = "L",
            description = "the longest a vCPU with work may wait for a CPU, in us (Tableau's scheduling delay bound)")
    Long maxLatencyUs;

    @Option(
            names = "--periods-us",
            split = ",",
            paramLabel = "T",
            description =
                    "candidate periods in us, e.g. 100000,50000,20000 (default: the divisors of --hyperperiod-us)")
    List<Long> periodsUs;

    @Option(
            names = "--hyperperiod-us",
            paramLabel = "H",
            defaultValue = "" + PeriodCandidates.DEFAULT_HYPERPERIOD_US,
            description =
                    "candidate periods are the divisors of H that Xen accepts (>= 10 us) (default: ${DEFAULT-VALUE}, "
                            + "close to Tableau's 102.7 ms: 117 periods from 10 us)")
    long hyperperiodUs;
}
