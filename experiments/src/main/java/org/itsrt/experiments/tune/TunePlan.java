package org.itsrt.experiments.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.scheduling.budget.LinuxLimits;

/**
 * What a tune will do: a run plan and a search range. Every point runs the plan with its budget
 * and period over the plan's budget ({@link PipelineEvaluator}); the range comes from the request,
 * else from the base experiment's rows, within the kernel's limits.
 *
 * @param experiment the base experiment with the request's SLO (its rows give the defaults, not points)
 * @param pointPlan  the plan of every point: the first row's, its budget to be replaced
 * @param settings   the search: ranges per period, repetitions, the SLO
 */
public record TunePlan(ExperimentSpec experiment, RunPlan pointPlan, BudgetSearch.Settings settings) {

    /** Runs per point where its first runs disagree, unless the request asks for more repetitions. */
    public static final int DEFAULT_MAX_REPETITIONS = 4;

    /** The seed of an annealing unless the request names one. */
    public static final long DEFAULT_SEED = 1;

    /**
     * The search range as asked: each value null for the base file's (or the backend's) default.
     *
     * @param repetitions runs per point; a point passes only if every run meets the SLO
     * @param strategy    {@code bisection} or {@code annealing} (null: bisection)
     * @param seed        the annealing's seed (null: {@link #DEFAULT_SEED})
     * @param maxPoints   the most points the annealing measures (null: as many as the bisection may)
     */
    public record Request(
            Double sloP99Ms,
            Double sloMaxMs,
            List<Long> periodsUs,
            Long minBudgetUs,
            Long maxBudgetUs,
            Long resolutionUs,
            int repetitions,
            Integer maxRepetitions,
            String strategy,
            Long seed,
            Integer maxPoints) {}

    /**
     * Checks the file's backend and rows and every value of the request against them and the
     * kernel's limits; names each problem.
     *
     * @throws SpecException naming every problem, one per line
     */
    public static TunePlan of(ExperimentSpec spec, Path baseFile, Request request) {
        List<String> problems = new ArrayList<>();
        BudgetPlan.Backend backend = spec.backend();
        if (!backend.isLinux()) {
            throw new SpecException(
                    baseFile + ": backend " + backend.yamlName + ": ./its tune puts budgets on the job's "
                            + "process on this host, so it takes linux-cgroup or linux-deadline"
                            + (backend == BudgetPlan.Backend.NONE
                                    ? " (none sets no budget)"
                                    : " (xen-* rows are set by ./its experiment --row-command, in Xen's dom0 or on the "
                                            + "Docker Compose stack; ./its experiment --print-plan prints them)"));
        }
        boolean cgroup = backend == BudgetPlan.Backend.LINUX_CGROUP;
        theRowsOne(spec, Row::cpus, "cpus", baseFile, problems);
        theRowsOne(spec, Row::threads, "threads", baseFile, problems);

        double p99 =
                request.sloP99Ms() != null ? request.sloP99Ms() : spec.slo().p99Ms();
        double max =
                request.sloMaxMs() != null ? request.sloMaxMs() : spec.slo().maxMs();
        int repetitions = request.repetitions();
        require(p99 > 0, "--slo-p99 must be > 0 ms, got " + p99, problems);
        require(max > 0, "--slo-max must be > 0 ms, got " + max, problems);
        require(repetitions >= 1, "--repetitions must be >= 1, got " + repetitions, problems);
        int maxReps = request.maxRepetitions() != null
                ? request.maxRepetitions()
                : Math.max(DEFAULT_MAX_REPETITIONS, repetitions);
        require(
                maxReps >= repetitions,
                "--max-repetitions must be >= --repetitions (" + repetitions + "), got " + maxReps,
                problems);
        Long resolution = request.resolutionUs();
        require(resolution == null || resolution >= 1, "--resolution-us must be >= 1, got " + resolution, problems);
        SearchStrategy.Kind strategy = request.strategy() == null
                ? SearchStrategy.Kind.BISECTION
                : SearchStrategy.Kind.named(request.strategy());
        require(strategy != null, "--strategy must be bisection or annealing, got " + request.strategy(), problems);
        Integer maxPoints = request.maxPoints();
        require(maxPoints == null || maxPoints >= 1, "--max-points must be >= 1, got " + maxPoints, problems);
        boolean annealing = strategy == SearchStrategy.Kind.ANNEALING;
        require(
                annealing || strategy == null || maxPoints == null && request.seed() == null,
                "--max-points and --search-seed choose an annealing's points: give them with --strategy annealing",
                problems);

        // The kernel's limits, as the backends and the plans check them.
        long minPeriod = cgroup ? LinuxLimits.CFS_MIN_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MIN_US;
        long maxPeriod = cgroup ? LinuxLimits.CFS_MAX_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MAX_US;
        long backendMin = cgroup ? LinuxLimits.CFS_MIN_QUOTA_US : (LinuxLimits.DL_MIN_RUNTIME_NS + 999) / 1000;
        String kernelMin = cgroup ? "the kernel's minimum quota" : "the kernel's minimum SCHED_DEADLINE runtime";
        Long minBudget = request.minBudgetUs();
        Long maxBudget = request.maxBudgetUs();
        require(
                minBudget == null || minBudget >= backendMin,
                "--min-budget-us must be >= " + backendMin + " us for " + backend.yamlName + " (" + kernelMin
                        + "), got " + minBudget,
                problems);

        List<Long> searched = request.periodsUs() != null
                ? request.periodsUs()
                : spec.rows().stream()
                        .map(Row::periodUs)
                        .filter(Objects::nonNull)
                        .distinct()
                        .toList();
        Set<Long> seen = new LinkedHashSet<>();
        List<SearchRange> ranges = new ArrayList<>();
        for (long period : searched) {
            if (!seen.add(period)) {
                problems.add("--period-us " + period + " is given twice");
                continue;
            }
            if (period < minPeriod || period > maxPeriod) {
                problems.add("--period-us must be " + minPeriod + ".." + maxPeriod + " us for " + backend.yamlName
                        + ", got " + period);
                continue;
            }
            List<Long> rowBudgets = spec.rows().stream()
                    .filter(r -> Objects.equals(r.periodUs(), period))
                    .map(Row::budgetUs)
                    .filter(Objects::nonNull)
                    .sorted()
                    .toList();
            long hi = maxBudget != null
                    ? maxBudget
                    : rowBudgets.isEmpty() ? period : rowBudgets.get(rowBudgets.size() - 1);
            long rowsLo = rowBudgets.isEmpty() ? backendMin : rowBudgets.get(0);
            long lo = minBudget != null ? minBudget : rowsLo < hi ? rowsLo : backendMin;
            if (hi > period) {
                problems.add("--max-budget-us must be at most the period (a budget is CPU time per period), got " + hi
                        + " with --period-us " + period);
                continue;
            }
            if (lo >= hi) {
                String where = " (period " + period + " us)";
                problems.add(
                        minBudget != null
                                ? "--min-budget-us " + lo + " must be below the upper bound " + hi + " us" + where
                                : maxBudget != null
                                        ? "--max-budget-us " + hi + " must be above the lower bound " + lo + " us"
                                                + where
                                        : "--period-us " + period + " leaves no budgets to search: " + lo + ".." + hi
                                                + " us");
                continue;
            }
            if (resolution == null || resolution >= 1) {
                long step = resolution != null ? resolution : Math.max(1, period / 100);
                ranges.add(new SearchRange(period, lo, hi, step));
            }
        }
        require(!searched.isEmpty(), "--period-us is required: the file's rows name no period", problems);
        if (!problems.isEmpty()) {
            throw new SpecException(String.join("\n", problems));
        }
        BudgetSearch.Settings bisection = new BudgetSearch.Settings(ranges, repetitions, maxReps, p99, max);
        return new TunePlan(
                spec.withSlo(new ExperimentSpec.Slo(p99, max, spec.slo().windowP95Ms())),
                spec.rows().get(0).plan(),
                annealing
                        ? bisection.with(SearchStrategy.annealing(
                                request.seed() != null ? request.seed() : DEFAULT_SEED,
                                // As many points as the bisection may take at most: the same cost, unless asked.
                                maxPoints != null ? maxPoints : SearchStrategy.BISECTION.maxPoints(ranges)))
                        : bisection);
    }

    /** The one value the file's rows give a field (cpus, threads), which every point gets. */
    private static void theRowsOne(
            ExperimentSpec spec, Function<Row, String> field, String name, Path baseFile, List<String> problems) {
        Set<String> values = new LinkedHashSet<>();
        spec.rows().forEach(r -> values.add(field.apply(r)));
        if (values.size() > 1) {
            problems.add(
                    baseFile + ": rows: every point of a tune gets the rows' " + name + ", and they differ: " + values);
        }
    }

    private static void require(boolean ok, String problem, List<String> problems) {
        if (!ok) {
            problems.add(problem);
        }
    }

    /** The search space in words: periods, ranges, the most runs, what the first point sets. */
    public String describe(PipelineEvaluator points) {
        ExperimentSpec base = experiment;
        BudgetSearch.Settings s = settings;
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "tune %s: backend %s, %d CPU(s); a run "
                        + "meets the SLO with steady-state p99 <= %s ms, max <= %s ms and every record; %,d records per run "
                        + "at %s records/s per detector, %s%n",
                base.name(),
                pointPlan.budget().backend().yamlName,
                pointPlan.budget().vcpus(),
                number(s.sloP99Ms()),
                number(s.sloMaxMs()),
                pointPlan.load().records(),
                number(pointPlan.load().rateHz()),
                base.withRows(List.of(new Row("base", pointPlan))).warmupDescription()));
        for (SearchRange r : s.ranges()) {
            Row top = points.row(r.maxBudgetUs(), r.periodUs());
            boolean bisection = s.strategy().kind() == SearchStrategy.Kind.BISECTION;
            text.append(String.format(
                    Locale.ROOT,
                    bisection
                            ? "  period %d us: budgets %d..%d us to within %d us, at most %d points; the first: %s%n"
                            : "  period %d us: budgets %d..%d us in steps of %d us, %d of them; the upper bound: %s%n",
                    r.periodUs(),
                    r.minBudgetUs(),
                    r.maxBudgetUs(),
                    r.resolutionUs(),
                    bisection ? r.maxPoints() : r.topStep() + 1,
                    Budgets.describe(top.budget())));
        }
        text.append("points chosen by ").append(s.strategy().describe()).append('\n');
        text.append(String.format(
                Locale.ROOT,
                "at most %d runs (%d per point; up to %d at a point whose runs disagree)%n",
                s.maxRuns(),
                s.repetitions(),
                s.maxRepetitions()));
        return text.toString();
    }

    private static String number(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
