package org.itsrt.experiments.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.Workload;

/**
 * What a capacity search will do: a district run plan, its budget held fixed, and the request
 * rates to search. Every point runs the plan with its {@code load.district.requests_per_second}
 * replaced by the point's rate ({@link #pointPlan(double)}).
 *
 * @param pointPlan the plan of every point, its request rate to be replaced
 * @param settings  the search: rates, repetitions, the SLO
 */
public record CapacityPlan(RunPlan pointPlan, CapacitySearch.Settings settings) {

    public static final double DEFAULT_MIN_RATE = 250;
    public static final double DEFAULT_MAX_RATE = 8_000;
    public static final double DEFAULT_RESOLUTION = 100;
    public static final int DEFAULT_REPETITIONS = 3;
    /** Runs per point where its first runs disagree, unless more repetitions are asked for. */
    public static final int DEFAULT_MAX_REPETITIONS = 5;

    /** The search as asked: each value null for its default. */
    public record Request(
            Double minRate,
            Double maxRate,
            Double resolution,
            Integer repetitions,
            Integer maxRepetitions,
            Double sloP99Ms,
            Double lagToleranceMsPerS) {}

    /**
     * Checks the plan and every value of the request; names each problem.
     *
     * @throws SpecException naming every problem, one per line
     */
    public static CapacityPlan of(RunPlan plan, Request request) {
        List<String> problems = new ArrayList<>();
        if (plan.load().workload() != Workload.DISTRICT) {
            problems.add("load.workload: ./its capacity searches route requests per second, so it takes district, got "
                    + plan.load().workload());
        }
        BudgetPlan.Backend backend = plan.budget().backend();
        if (!backend.isLinux() && backend != BudgetPlan.Backend.NONE) {
            problems.add(
                    "budget.backend " + backend.yamlName + ": ./its capacity holds the budget on the job's process "
                            + "on this host, so it takes none, linux-cgroup or linux-deadline");
        }
        double min = or(request.minRate(), DEFAULT_MIN_RATE);
        double max = or(request.maxRate(), DEFAULT_MAX_RATE);
        double resolution = or(request.resolution(), DEFAULT_RESOLUTION);
        int repetitions = request.repetitions() != null ? request.repetitions() : DEFAULT_REPETITIONS;
        int maxReps = request.maxRepetitions() != null
                ? request.maxRepetitions()
                : Math.max(DEFAULT_MAX_REPETITIONS, repetitions);
        double p99 = or(request.sloP99Ms(), CapacitySlo.DEFAULT_P99_MS);
        double tolerance = or(request.lagToleranceMsPerS(), CapacitySlo.DEFAULT_LAG_TOLERANCE_MS_PER_S);
        require(min > 0 && Double.isFinite(min), "--min-rate must be > 0 requests/s, got " + min, problems);
        require(
                Double.isFinite(max) && max > min,
                "--max-rate must be above --min-rate (" + min + "), got " + max,
                problems);
        require(
                resolution > 0 && Double.isFinite(resolution),
                "--rate-resolution must be > 0 requests/s, got " + resolution,
                problems);
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
                        min, max, resolution, repetitions, maxReps, new CapacitySlo(p99, tolerance)));
    }

    /** The plan of a point: this plan with {@code rate} route requests per second. */
    public RunPlan pointPlan(double rate) {
        RunPlan.Builder plan = pointPlan.toBuilder();
        plan.load().districtFields().requestsPerSecond(rate);
        return plan.build();
    }

    /** The search space in words: the district, the budget, the rule, the rates, the most runs. */
    public String describe() {
        CapacitySearch.Settings s = settings;
        var district = pointPlan.load().district();
        return String.format(
                Locale.ROOT,
                "capacity: a district of %,d detectors (seed %d) at %s readings/s per detector, %,d readings measured "
                        + "per run; budget: %s%n"
                        + "a run meets the SLO when its requests -> answers p99 <= %s ms, the slope of its per-window "
                        + "p95 <= %s ms/s (no growing lag), every request answered and the run exited 0%n"
                        + "rates %s..%s requests/s: the lower bound, doubling, then bisection to within %s; at most %d "
                        + "points, %d run(s) each (up to %d where they disagree)%n",
                district.detectors(),
                district.seed(),
                CapacitySlo.number(Math.round(pointPlan.load().rateHz() * 1e4) / 1e4),
                pointPlan.load().records(),
                Budgets.describe(pointPlan.budget()),
                CapacitySlo.number(s.slo().p99Ms()),
                CapacitySlo.number(s.slo().lagToleranceMsPerS()),
                CapacitySlo.number(s.minRate()),
                CapacitySlo.number(s.maxRate()),
                CapacitySlo.number(s.resolution()),
                s.maxPoints(),
                s.repetitions(),
                s.maxRepetitions());
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
