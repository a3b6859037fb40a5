package org.itsrt.scheduling.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.OneLineErrors;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.scheduling.budget.BudgetRefusal;
import org.itsrt.scheduling.budget.ComposeCpu;
import org.itsrt.scheduling.budget.DomainBudget;
import org.itsrt.scheduling.budget.PeriodCandidates;
import org.itsrt.scheduling.budget.PoolCheck;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.budget.StudyRow;
import org.itsrt.scheduling.budget.StudyRows;
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

    private static final List<String> FORMATS = List.of("text", "json", "compose");

    @Spec
    private CommandSpec spec;

    @Mixin
    RuleOptions rule;

    @Mixin
    StudyRowOptions studyRows;

    @Option(
            names = "--domain",
            paramLabel = "NAME",
            defaultValue = "rt-vm",
            description = "the domain the xl commands name (default: ${DEFAULT-VALUE})")
    String domain;

    @Option(names = "--extratime", description = "let RTDS give the domain idle CPU time beyond its budget (-e 1)")
    boolean extratime;

    @Mixin
    PoolOptions poolOptions;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling: one clear line on failure ({@link OneLineErrors}). */
    public static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new BudgetCommand()));
    }

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        String problem = reserved.problem(FORMATS);
        if (problem != null) {
            throw new CommandLine.ParameterException(cmd, problem);
        }
        boolean byRule = rule.utilization != null || rule.maxLatencyUs != null;
        boolean direct = reserved.budgetUs != null || reserved.period.one() != null;
        if (studyRows.rowsFile != null && studyRows.row == null) {
            throw new CommandLine.ParameterException(cmd, "--rows names the file --row reads: give --row too");
        }
        if (studyRows.row != null
                && (byRule
                        || direct
                        || rule.periodsUs != null
                        || cmd.getParseResult().hasMatchedOption("--hyperperiod-us")
                        || extratime)) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--row takes the reservation from the row: it goes without --utilization/--max-latency-us, "
                            + "--budget-us/--period-us, --periods-us/--hyperperiod-us and --extratime (the row "
                            + "says it)");
        }
        if (studyRows.row != null) {
            return byRow(cmd);
        }
        if (byRule == direct) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "give either --utilization with --max-latency-us (the "
                            + "Tableau rule) or --budget-us with --period-us");
        }
        if (byRule && (rule.utilization == null || rule.maxLatencyUs == null)) {
            throw new CommandLine.ParameterException(cmd, "--utilization and --max-latency-us go together");
        }
        if (direct && (reserved.budgetUs == null || reserved.period.one() == null)) {
            throw new CommandLine.ParameterException(cmd, "--budget-us and --period-us go together");
        }
        if (direct
                && (rule.periodsUs != null
                        || spec.commandLine().getParseResult().hasMatchedOption("--hyperperiod-us"))) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--periods-us and --hyperperiod-us are candidates for the "
                            + "rule; with --budget-us/--period-us the period is given");
        }
        if (byRule && (rule.utilization.signum() <= 0 || rule.utilization.compareTo(BigDecimal.ONE) > 0)) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--utilization must be in (0, 1] (a share of one CPU per " + "vCPU), got "
                            + rule.utilization.toPlainString());
        }
        if (byRule && rule.maxLatencyUs < 0) {
            throw new CommandLine.ParameterException(cmd, "--max-latency-us must be >= 0, got " + rule.maxLatencyUs);
        }
        PoolCheck.Pool pool = poolOptions.pool(cmd);
        PeriodCandidates candidates = null;
        if (byRule) {
            try {
                candidates = rule.periodsUs != null
                        ? PeriodCandidates.of(rule.periodsUs)
                        : PeriodCandidates.divisorsOf(rule.hyperperiodUs);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(
                        cmd, (rule.periodsUs != null ? "--periods-us: " : "--hyperperiod-us: ") + e.getMessage());
            }
        }
        DomainBudget plan;
        try {
            plan = byRule
                    ? DomainBudget.byRule(
                            domain, reserved.vcpus, rule.utilization, rule.maxLatencyUs, candidates, pool, extratime)
                    : DomainBudget.direct(
                            domain, reserved.vcpus, reserved.budgetUs, reserved.period.one(), pool, extratime);
        } catch (BudgetRefusal refusal) {
            return Rendering.refused(cmd, refusal.constraint(), refusal.getMessage());
        }
        return print(cmd, new Rendering(domain, reserved.vcpus, plan, null, null, null, Rendering.commandLine(cmd)));
    }

    /** The reservation of a study studyRows.row: a budget, a Credit cap as bandwidth, or none at all. */
    private int byRow(CommandLine cmd) {
        PoolCheck.Pool pool = poolOptions.pool(cmd);
        StudyRows rows;
        String rowsShown = studyRows.rowsShown();
        try {
            rows = studyRows.rows();
        } catch (IllegalArgumentException | MissingDefaultException e) {
            cmd.getErr().println("its budget: " + e.getMessage());
            cmd.getErr().flush();
            return Rendering.REFUSED;
        }
        StudyRow studyRow;
        try {
            studyRow = rows.row(studyRows.row);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--row: " + e.getMessage());
        }
        // The bundled override files are the repository rows' own; a row of another file has none.
        String composeFile =
                studyRows.rowsFile == null && !studyRow.xenDefault() ? ComposeCpu.rowFile(studyRow.name()) : null;
        Optional<Reservation> reservation;
        try {
            reservation = studyRow.reservation(reserved.vcpus);
        } catch (IllegalArgumentException e) {
            return Rendering.refused(cmd, "row", e.getMessage());
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
                return Rendering.refused(
                        cmd, refusal.constraint(), "row " + studyRow.name() + ": " + refusal.getMessage());
            }
        }
        return print(
                cmd,
                new Rendering(
                        domain, reserved.vcpus, plan, studyRow, rowsShown, composeFile, Rendering.commandLine(cmd)));
    }

    private int print(CommandLine cmd, Rendering rendering) {
        PrintWriter out = cmd.getOut();
        switch (reserved.format) {
            case "json" -> out.print(PlanRenderer.json(rendering) + System.lineSeparator());
            case "compose" -> {
                String problem = rendering.compose().problem();
                if (problem != null) {
                    return Rendering.refused(
                            cmd, "compose", "Docker cannot give the TaskManager container this: " + problem);
                }
                out.print(PlanRenderer.compose(rendering));
            }
            default -> out.print(PlanRenderer.text(rendering));
        }
        out.flush();
        return 0;
    }
}
