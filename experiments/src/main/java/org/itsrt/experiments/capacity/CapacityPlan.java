package org.itsrt.experiments.capacity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.cli.Durations;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.records.Workload;

/**
 * What a capacity search will do: a district run plan, its budget held fixed, the axis its points
 * vary and the range to search. On the requests axis every point runs the plan with its
 * {@code load.district.requests_per_second} replaced by the point's rate; on the detectors axis
 * with its {@code load.district.detectors} replaced by the point's count and its measured and
 * warm-up records scaled with it, so that both phases last as long as the plan's at its own size
 * ({@link #pointPlan(double)}).
 *
 * @param pointPlan the plan of every point, its load to be replaced
 * @param settings  the search: the axis, the range, repetitions, the SLO
 */
public record CapacityPlan(RunPlan pointPlan, CapacitySearch.Settings settings) {

    public static final int DEFAULT_REPETITIONS = 3;
    /** Runs per point where its first runs disagree, unless more repetitions are asked for. */
    public static final int DEFAULT_MAX_REPETITIONS = 5;

    /** The search as asked: each value null for its default (the axis's, for the range). */
    public record Request(
            String axis,
            Double min,
            Double max,
            Double resolution,
            Integer repetitions,
            Integer maxRepetitions,
            Double sloP99Ms,
            Double lagToleranceMsPerS) {}

    /**
     * Checks the plan and every value of the request; names each problem.
     *
     * @throws SpecException naming every problem, one per line
     * @throws IllegalArgumentException naming {@code --axis} when it names no axis
     */
    public static CapacityPlan of(RunPlan plan, Request request) {
        CapacityAxis axis = CapacityAxis.of(request.axis());
        List<String> problems = new ArrayList<>();
        LoadPlan load = plan.load();
        if (load.workload() != Workload.DISTRICT) {
            problems.add("load.workload: ./its capacity searches " + axis.title + ", so it takes district, got "
                    + load.workload());
        } else if (axis == CapacityAxis.DETECTORS) {
            if (load.district().dir() != null) {
                problems.add("load.district.dir: --axis detectors sizes a generated district, so it takes a plan "
                        + "without a district folder, got " + load.district().dir());
            }
            if (load.data() != null) {
                problems.add("load.data: --axis detectors replays the generated district's readings, so it takes "
                        + "a plan without a readings table, got " + load.data());
            }
        }
        BudgetPlan.Backend backend = plan.budget().backend();
        if (!backend.isLinux() && backend != BudgetPlan.Backend.NONE) {
            problems.add(
                    "budget.backend " + backend.yamlName + ": ./its capacity holds the budget on the job's process "
                            + "on this host, so it takes none, linux-cgroup or linux-deadline");
        }
        double min = or(request.min(), axis.defaultMin);
        double max = or(request.max(), axis.defaultMax);
        double resolution = or(request.resolution(), axis.defaultResolution);
        int repetitions = request.repetitions() != null ? request.repetitions() : DEFAULT_REPETITIONS;
        int maxReps = request.maxRepetitions() != null
                ? request.maxRepetitions()
                : Math.max(DEFAULT_MAX_REPETITIONS, repetitions);
        double p99 = or(request.sloP99Ms(), CapacitySlo.DEFAULT_P99_MS);
        double tolerance = or(request.lagToleranceMsPerS(), CapacitySlo.DEFAULT_LAG_TOLERANCE_MS_PER_S);
        if (axis == CapacityAxis.DETECTORS) {
            require(
                    min >= DistrictPlan.MIN_DETECTORS && isWhole(min),
                    "--min must be a whole number of detectors >= " + DistrictPlan.MIN_DETECTORS
                            + " (the smallest district ./its generate makes), got " + min,
                    problems);
            require(
                    Double.isFinite(max) && max > min && isWhole(max),
                    "--max must be a whole number of detectors above --min (" + min + "), got " + max,
                    problems);
            require(
                    resolution >= 1 && Double.isFinite(resolution),
                    "--resolution must be >= 1 detector, got " + resolution,
                    problems);
        } else {
            require(min > 0 && Double.isFinite(min), "--min must be > 0 requests/s, got " + min, problems);
            require(Double.isFinite(max) && max > min, "--max must be above --min (" + min + "), got " + max, problems);
            require(
                    resolution > 0 && Double.isFinite(resolution),
                    "--resolution must be > 0 requests/s, got " + resolution,
                    problems);
        }
        require(repetitions >= 1, "--repetitions must be >= 1, got " + repetitions, problems);
        require(
                maxReps >= repetitions,
                "--max-repetitions must be >= --repetitions (" + repetitions + "), got " + maxReps,
                problems);
        require(p99 > 0 && Double.isFinite(p99), "--slo-p99 must be > 0 ms, got " + p99, problems);
        require(
                tolerance >= 0 && Double.isFinite(tolerance),
                "--lag-tolerance must be >= 0 ms/s, got " + tolerance,
                problems);
        if (!problems.isEmpty()) {
            throw new SpecException(String.join("\n", problems));
        }
        return new CapacityPlan(
                plan,
                new CapacitySearch.Settings(
                        axis, min, max, resolution, repetitions, maxReps, new CapacitySlo(p99, tolerance)));
    }

    public CapacityAxis axis() {
        return settings.axis();
    }

    /**
     * The plan of a point. On the requests axis: this plan with {@code load} route requests per
     * second. On the detectors axis: this plan's district generated with {@code load} detectors, and
     * its measured and warm-up records the plan's per detector times {@code load} (rounded), so that
     * at the same rate per detector both phases last as long as this plan's.
     */
    public RunPlan pointPlan(double load) {
        RunPlan.Builder plan = pointPlan.toBuilder();
        switch (axis()) {
            case REQUESTS -> plan.load().districtFields().requestsPerSecond(load);
            case DETECTORS -> {
                LoadPlan base = pointPlan.load();
                double scale = load / base.district().detectors();
                plan.load().districtFields().detectors((int) load);
                plan.load()
                        .records(Math.max(1, Math.round(base.records() * scale)))
                        .warmupRecords(Math.round(base.warmupRecords() * scale));
            }
        }
        return plan.build();
    }

    /**
     * The streams a point's runs are judged by: the predictions always, and the answers wherever
     * requests are sent (every point of the requests axis). Both, because the answers are routed by
     * a subtask of their own: measured at 4,800 detectors, the answers kept their p99 at 11-27 ms
     * at a rate where the readings fell seconds behind, a district served only in part.
     */
    public List<Workload.Stream> judged() {
        return axis() == CapacityAxis.REQUESTS || pointPlan.load().sendsRequests()
                ? List.of(Workload.Stream.PREDICTIONS, Workload.Stream.ROUTES)
                : List.of(Workload.Stream.PREDICTIONS);
    }

    /** The search space in words: the axis, the district, the budget, the rule, the range, the most runs. */
    public String describe() {
        CapacitySearch.Settings s = settings;
        LoadPlan load = pointPlan.load();
        var district = load.district();
        String perDetector = CapacitySlo.number(Math.round(load.rateHz() * 1e4) / 1e4);
        String loadWords = axis() == CapacityAxis.REQUESTS
                ? String.format(
                        Locale.ROOT,
                        "a district of %,d detectors (seed %d) at %s readings/s per detector, %,d readings measured "
                                + "per run",
                        district.detectors(),
                        district.seed(),
                        perDetector,
                        load.records())
                : String.format(
                        Locale.ROOT,
                        "a generated district (seed %d) of each point's detectors at %s readings/s per detector (a "
                                + "speed-up of %s), %s; each point as long as the plan at %,d "
                                + "detectors: %s of warm-up, %s measured",
                        district.seed(),
                        perDetector,
                        CapacitySlo.number(Math.round(load.rateHz() * 300 * 1e4) / 1e4),
                        load.sendsRequests()
                                ? CapacitySlo.number(district.requestsPerSecond()) + " route requests/s"
                                : "no route requests",
                        district.detectors(),
                        Durations.format(load.warmupDuration()),
                        Durations.format(Duration.ofNanos(
                                Math.round(load.records() / (load.rateHz() * load.detectorCount()) * 1e9))));
        String range = axis() == CapacityAxis.REQUESTS
                ? "rates " + CapacitySlo.number(s.minLoad()) + ".." + CapacitySlo.number(s.maxLoad()) + " requests/s"
                : "districts of " + CapacitySlo.number(s.minLoad()) + ".." + CapacitySlo.number(s.maxLoad())
                        + " detectors";
        return String.format(
                Locale.ROOT,
                "capacity along the %s axis (%s): %s; budget: %s%n"
                        + "a run meets the SLO when, for its %s, the p99 <= %s ms, the slope of the per-window "
                        + "p95 <= %s ms/s (no growing lag) and every record delivered, and the run exited 0%n"
                        + "%s: the lower bound, doubling, then bisection to within %s; at most %d points, %d run(s) "
                        + "each (up to %d where they disagree)%n",
                axis().optionName,
                axis().title,
                loadWords,
                Budgets.describe(pointPlan.budget()),
                String.join(
                        " and its ",
                        judged().stream().map(Workload.Stream::measures).toList()),
                CapacitySlo.number(s.slo().p99Ms()),
                CapacitySlo.number(s.slo().lagToleranceMsPerS()),
                range,
                CapacitySlo.number(s.resolution()),
                s.maxPoints(),
                s.repetitions(),
                s.maxRepetitions());
    }

    private static boolean isWhole(double value) {
        return value == Math.rint(value);
    }

    private static double or(Double value, double otherwise) {
        return value != null ? value : otherwise;
    }

    private static void require(boolean ok, String problem, List<String> problems) {
        if (!ok) {
            problems.add(problem);
        }
    }
}
