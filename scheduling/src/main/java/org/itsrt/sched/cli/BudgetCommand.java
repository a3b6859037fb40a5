package org.itsrt.sched.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.sched.budget.BudgetPlan;
import org.itsrt.sched.budget.BudgetRefusal;
import org.itsrt.sched.budget.PeriodCandidates;
import org.itsrt.sched.budget.PoolCheck;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its budget}: an RTDS budget and period by the Tableau rule, checked against the pool, in every scheduler's terms. */
@Command(
        name = "its budget",
        sortOptions = false,
        subcommands = ApplyCommand.class,
        description = {
            "Works out the CPU reservation of a domain (rt-vm, the job's 2-vCPU VM, by default): with "
                    + "--utilization and --max-latency-us, Tableau's rule picks the largest candidate period T "
                    + "with 2(1-U)T <= L and the budget C = U*T rounded up to a whole us; with --budget-us and "
                    + "--period-us it takes them as given. It checks Xen's limits and, with --pool-cpus, that "
                    + "the cpupool can hold it beside Dom0 and --other reservations, then prints the xl "
                    + "commands for RTDS and Credit and the Linux equivalents: cgroup v2 cpu.max, cgroup v1 "
                    + "cfs quota/period, SCHED_DEADLINE per thread.",
            "'its budget apply' puts a budget on a running process on this Linux machine. "
                    + "Details: docs/scheduling.md."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a budget was worked out",
            "2:refused (no period meets the latency, Xen's limits, or the pool cannot hold it; the message "
                    + "names the constraint and by how much), or bad usage"
        })
public final class BudgetCommand implements Callable<Integer> {

    static final int REFUSED = 2;

    @Spec
    private CommandSpec spec;

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

    @Option(names = "--budget-us", paramLabel = "C", description = "a budget given directly, in us; with --period-us")
    Long budgetUs;

    @Option(names = "--period-us", paramLabel = "T", description = "a period given directly, in us; with --budget-us")
    Long periodUs;

    @Option(
            names = "--vcpus",
            paramLabel = "N",
            defaultValue = "2",
            description =
                    "vCPUs of the domain, each with this reservation (default: ${DEFAULT-VALUE}, the study's rt-vm)")
    int vcpus;

    @Option(
            names = "--domain",
            paramLabel = "NAME",
            defaultValue = "rt-vm",
            description = "the domain the xl commands name (default: ${DEFAULT-VALUE})")
    String domain;

    @Option(names = "--extratime", description = "let RTDS give the domain idle CPU time beyond its budget (-e 1)")
    boolean extratime;

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

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text or json (default: ${DEFAULT-VALUE})")
    String format;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling: one clear line on failure. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new BudgetCommand());
        commandLine.setExecutionExceptionHandler((error, cmd, parseResult) -> {
            String message = error.getMessage();
            cmd.getErr()
                    .println(cmd.getCommandSpec().qualifiedName() + ": "
                            + (message == null || message.isBlank()
                                    ? error.getClass().getSimpleName()
                                    : message));
            if (parseResult.subcommand() != null && parseResult.subcommand().hasMatchedOption("--verbose")) {
                error.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return 1;
        });
        return commandLine;
    }

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        if (!format.equals("text") && !format.equals("json")) {
            throw new CommandLine.ParameterException(cmd, "--format must be text or json, got '" + format + "'");
        }
        if (vcpus < 1) {
            throw new CommandLine.ParameterException(cmd, "--vcpus must be >= 1, got " + vcpus);
        }
        boolean rule = utilization != null || maxLatencyUs != null;
        boolean direct = budgetUs != null || periodUs != null;
        if (rule == direct) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "give either --utilization with --max-latency-us (the "
                            + "Tableau rule) or --budget-us with --period-us");
        }
        if (rule && (utilization == null || maxLatencyUs == null)) {
            throw new CommandLine.ParameterException(cmd, "--utilization and --max-latency-us go together");
        }
        if (direct && (budgetUs == null || periodUs == null)) {
            throw new CommandLine.ParameterException(cmd, "--budget-us and --period-us go together");
        }
        if (direct && (periodsUs != null || spec.commandLine().getParseResult().hasMatchedOption("--hyperperiod-us"))) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--periods-us and --hyperperiod-us are candidates for the "
                            + "rule; with --budget-us/--period-us the period is given");
        }
        if (rule && (utilization.signum() <= 0 || utilization.compareTo(BigDecimal.ONE) > 0)) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--utilization must be in (0, 1] (a share of one CPU per " + "vCPU), got "
                            + utilization.toPlainString());
        }
        if (rule && maxLatencyUs < 0) {
            throw new CommandLine.ParameterException(cmd, "--max-latency-us must be >= 0, got " + maxLatencyUs);
        }
        if (poolCpus == null
                && (!others.isEmpty()
                        || spec.commandLine().getParseResult().hasMatchedOption("--dom0-vcpus")
                        || spec.commandLine().getParseResult().hasMatchedOption("--dom0-utilization"))) {
            throw new CommandLine.ParameterException(
                    cmd, "--other, --dom0-vcpus and --dom0-utilization describe the " + "pool: give --pool-cpus too");
        }
        if (poolCpus != null && poolCpus < 1) {
            throw new CommandLine.ParameterException(cmd, "--pool-cpus must be >= 1, got " + poolCpus);
        }
        if (dom0Vcpus < 0) {
            throw new CommandLine.ParameterException(cmd, "--dom0-vcpus must be >= 0, got " + dom0Vcpus);
        }
        PeriodCandidates candidates = null;
        if (rule) {
            try {
                candidates =
                        periodsUs != null ? PeriodCandidates.of(periodsUs) : PeriodCandidates.divisorsOf(hyperperiodUs);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(
                        cmd, (periodsUs != null ? "--periods-us: " : "--hyperperiod-us: ") + e.getMessage());
            }
        }
        PoolCheck.Pool pool =
                poolCpus == null ? null : new PoolCheck.Pool(poolCpus, others, dom0Vcpus, dom0Utilization);

        PrintWriter out = cmd.getOut();
        PrintWriter err = cmd.getErr();
        BudgetPlan plan;
        try {
            plan = rule
                    ? BudgetPlan.byRule(domain, vcpus, utilization, maxLatencyUs, candidates, pool, extratime)
                    : BudgetPlan.direct(domain, vcpus, budgetUs, periodUs, pool, extratime);
        } catch (BudgetRefusal refusal) {
            err.println("its budget: refused (" + refusal.constraint() + "): " + refusal.getMessage());
            err.flush();
            return REFUSED;
        }
        out.print(format.equals("json") ? PlanRenderer.json(plan) + System.lineSeparator() : PlanRenderer.text(plan));
        out.flush();
        return 0;
    }
}
