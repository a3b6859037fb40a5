package org.itsrt.sched.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.sched.budget.BudgetRefusal;
import org.itsrt.sched.budget.ComposeCpu;
import org.itsrt.sched.budget.DomainBudget;
import org.itsrt.sched.budget.PeriodCandidates;
import org.itsrt.sched.budget.PoolCheck;
import org.itsrt.sched.budget.Reservation;
import org.itsrt.sched.budget.StudyRow;
import org.itsrt.sched.budget.StudyRows;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its budget}: an RTDS budget and period by the Tableau rule, checked against the pool, in every scheduler's terms. */
@Command(
        name = "its budget",
        sortOptions = false,
        subcommands = {ApplyCommand.class, RestoreCommand.class},
        description = {
            "Works out the CPU reservation of a domain (rt-vm, the job's 2-vCPU VM, by default): with "
                    + "--utilization and --max-latency-us, Tableau's rule picks the largest candidate period T "
                    + "with 2(1-U)T <= L and the budget C = U*T rounded up to a whole us; with --budget-us and "
                    + "--period-us it takes them as given; with --row, from a row of the study's scheduler rows "
                    + "(xen-configs/study-rows.tsv). It checks Xen's limits and, with --pool-cpus, that "
                    + "the cpupool can hold it beside Dom0 and --other reservations, then prints the xl "
                    + "commands for RTDS and Credit and the Linux equivalents: cgroup v2 cpu.max, cgroup v1 "
                    + "cfs quota/period, the Docker Compose stack's TaskManager cpu_period/cpu_quota, "
                    + "SCHED_DEADLINE per thread. --format compose prints the Compose override file alone.",
            "'its budget apply' puts a budget on a running process on this Linux machine; 'its budget "
                    + "restore' restores the budgets that killed runs left in force. Details: docs/scheduling.md."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a budget was worked out",
            "2:refused (no period meets the latency, Xen's limits, the pool cannot hold it, or --format "
                    + "compose and Docker cannot express it; the message names the constraint and by how much), a "
                    + "bad rows file, or bad usage"
        })
public final class BudgetCommand implements Callable<Integer> {

    @Mixin
    ReservationOptions reserved;

    @Mixin
    HelpOption help;

    static final int REFUSED = 2;

    private static final Set<String> FORMATS = Set.of("text", "json", "compose");
    private static final Pattern SHELL_PLAIN = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

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

    @Option(
            names = "--row",
            paramLabel = "NAME",
            description = "a row of the study's scheduler rows, e.g. rtds-76750 or credit-cap153: an RTDS row's "
                    + "budget and period per vCPU, a Credit cap as CFS bandwidth over "
                    + StudyRow.CREDIT_CAP_PERIOD_US + " us; rows without a cap have no CPU limit")
    String row;

    @Option(
            names = "--rows",
            paramLabel = "FILE",
            description = "another rows file with the columns of the repository's " + ProjectPaths.STUDY_ROWS
                    + "; with --row")
    Path rowsFile;

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
        if (!FORMATS.contains(reserved.format)) {
            throw new CommandLine.ParameterException(
                    cmd, "--format must be text, json or compose, got '" + reserved.format + "'");
        }
        if (reserved.vcpus < 1) {
            throw new CommandLine.ParameterException(cmd, "--vcpus must be >= 1, got " + reserved.vcpus);
        }
        boolean rule = utilization != null || maxLatencyUs != null;
        boolean direct = reserved.budgetUs != null || reserved.period.one() != null;
        if (rowsFile != null && row == null) {
            throw new CommandLine.ParameterException(cmd, "--rows names the file --row reads: give --row too");
        }
        if (row != null
                && (rule
                        || direct
                        || periodsUs != null
                        || cmd.getParseResult().hasMatchedOption("--hyperperiod-us")
                        || extratime)) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--row takes the reservation from the row: it goes without --utilization/--max-latency-us, "
                            + "--budget-us/--period-us, --periods-us/--hyperperiod-us and --extratime (the row "
                            + "says it)");
        }
        if (row != null) {
            return byRow(cmd);
        }
        if (rule == direct) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "give either --utilization with --max-latency-us (the "
                            + "Tableau rule) or --budget-us with --period-us");
        }
        if (rule && (utilization == null || maxLatencyUs == null)) {
            throw new CommandLine.ParameterException(cmd, "--utilization and --max-latency-us go together");
        }
        if (direct && (reserved.budgetUs == null || reserved.period.one() == null)) {
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
        PoolCheck.Pool pool = pool(cmd);
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
        DomainBudget plan;
        try {
            plan = rule
                    ? DomainBudget.byRule(
                            domain, reserved.vcpus, utilization, maxLatencyUs, candidates, pool, extratime)
                    : DomainBudget.direct(
                            domain, reserved.vcpus, reserved.budgetUs, reserved.period.one(), pool, extratime);
        } catch (BudgetRefusal refusal) {
            return refused(cmd, refusal.constraint(), refusal.getMessage());
        }
        return print(cmd, new Rendering(domain, reserved.vcpus, plan, null, null, null, commandLine(cmd)));
    }

    /** The reservation of a study row: a budget, a Credit cap as bandwidth, or none at all. */
    private int byRow(CommandLine cmd) {
        PoolCheck.Pool pool = pool(cmd);
        StudyRows rows;
        String rowsShown;
        try {
            if (rowsFile != null) {
                rows = StudyRows.read(rowsFile);
                rowsShown = rowsFile.toString();
            } else {
                rows = StudyRows.read(ProjectPaths.locate().studyRows());
                rowsShown = ProjectPaths.STUDY_ROWS;
            }
        } catch (IllegalArgumentException | MissingDefaultException e) {
            cmd.getErr().println("its budget: " + e.getMessage());
            cmd.getErr().flush();
            return REFUSED;
        }
        StudyRow studyRow;
        try {
            studyRow = rows.row(row);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--row: " + e.getMessage());
        }
        // The bundled override files are the repository rows' own; a row of another file has none.
        String composeFile = rowsFile == null && !studyRow.xenDefault() ? ComposeCpu.rowFile(studyRow.name()) : null;
        Optional<Reservation> reservation;
        try {
            reservation = studyRow.reservation(reserved.vcpus);
        } catch (IllegalArgumentException e) {
            return refused(cmd, "row", e.getMessage());
        }
        if (reservation.isEmpty() && pool != null) {
            throw new CommandLine.ParameterException(
                    cmd, "row " + studyRow.name() + " has no CPU limit: --pool-cpus has no reservation to check");
        }
        DomainBudget plan = null;
        if (reservation.isPresent()) {
            Reservation r = reservation.get();
            try {
                plan = DomainBudget.direct(
                        domain, reserved.vcpus, r.budgetUs(), r.periodUs(), pool, studyRow.extratime());
            } catch (BudgetRefusal refusal) {
                return refused(cmd, refusal.constraint(), "row " + studyRow.name() + ": " + refusal.getMessage());
            }
        }
        return print(
                cmd, new Rendering(domain, reserved.vcpus, plan, studyRow, rowsShown, composeFile, commandLine(cmd)));
    }

    private PoolCheck.Pool pool(CommandLine cmd) {
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

    private int print(CommandLine cmd, Rendering rendering) {
        PrintWriter out = cmd.getOut();
        switch (reserved.format) {
            case "json" -> out.print(PlanRenderer.json(rendering) + System.lineSeparator());
            case "compose" -> {
                String problem = rendering.compose().problem();
                if (problem != null) {
                    return refused(cmd, "compose", "Docker cannot give the TaskManager container this: " + problem);
                }
                out.print(PlanRenderer.compose(rendering));
            }
            default -> out.print(PlanRenderer.text(rendering));
        }
        out.flush();
        return 0;
    }

    private static int refused(CommandLine cmd, String constraint, String message) {
        cmd.getErr().println("its budget: refused (" + constraint + "): " + message);
        cmd.getErr().flush();
        return REFUSED;
    }

    /** The command as typed, for the header of an override file: how to render it again. */
    private static String commandLine(CommandLine cmd) {
        StringBuilder line = new StringBuilder("./its budget");
        for (String arg : cmd.getParseResult().originalArgs()) {
            line.append(' ').append(shellWord(arg));
        }
        return line.toString();
    }

    private static String shellWord(String arg) {
        return SHELL_PLAIN.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }
}
