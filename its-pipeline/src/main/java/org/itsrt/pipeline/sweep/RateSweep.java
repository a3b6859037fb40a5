package org.itsrt.pipeline.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.JobSpec;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.plan.PlanField;
import org.itsrt.pipeline.profile.Profiler;

/**
 * Steps the offered rate on one {@link RunningStack}: broker and cluster start once; each step is
 * one measurement like a single demo run (the job submitted, the readiness handshake, producers
 * and probe, the job cancelled): flagged warm-up records for {@code warmup}, then
 * {@code stepDuration} of measured records, at its rate, into {@code step-NN-RATE/}. After each step {@code sweep.md},
 * {@code sweep.csv} and the plot are written again, so an interrupted sweep leaves the steps it
 * measured.
 *
 * <p>The job is submitted again per step because a run's records start at sequence number 0 for
 * every detector: one job across steps would dead-letter every later step's readings as "seq not
 * increasing" (docs/job.md, the sequence check), and the probe counts loss per detector from seq
 * 0. The JVMs stay up, so only the job's own classes start cold in each step.
 */
public final class RateSweep {

    /**
     * The steps of a sweep; a field left out of a plan file takes its default.
     *
     * @param rates        total records per second of each step, all detectors together
     * @param stepDuration how long each step sends its measured records at its rate (default 60 s)
     * @param warmup       how long each step sends flagged warm-up records first, at its rate: a
     *                     time, since every step has a rate of its own (default 20 s: every step
     *                     submits the job anew, so each starts cold)
     */
    @JsonPropertyOrder({"rates", "step_duration", "warmup"})
    public record Plan(List<Double> rates, Duration stepDuration, Duration warmup) {

        public static final PlanField RATES = new PlanField("phases.sweep.rates", "--sweep");
        public static final PlanField STEP_DURATION = new PlanField("phases.sweep.step_duration", "--step-duration");
        public static final PlanField WARMUP = new PlanField("phases.sweep.warmup", "--warmup");

        public static final Duration DEFAULT_STEP_DURATION = Duration.ofSeconds(60);
        public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(20);

        public Plan {
            RATES.require(rates != null && !rates.isEmpty(), ": expected one or more rates, e.g. 1000,3000,6000");
            rates = List.copyOf(rates);
            for (Double r : rates) {
                RATES.require(r != null && r > 0 && !r.isInfinite(), ": a rate must be > 0 records/s, got " + r);
            }
            stepDuration = stepDuration != null ? stepDuration : DEFAULT_STEP_DURATION;
            warmup = warmup != null ? warmup : DEFAULT_WARMUP;
            STEP_DURATION.require(
                    !stepDuration.isNegative() && !stepDuration.isZero(), "must be > 0, got " + stepDuration);
            WARMUP.require(!warmup.isNegative(), "must not be negative, got " + warmup);
        }

        /**
         * The load of a step: {@code base} at this total rate, spread over its detectors, a warm-up
         * of {@link #warmup} and then {@link #stepDuration} of measured records.
         */
        LoadSpec step(LoadSpec base, double totalRate) {
            long records = Math.max(1, Math.round(totalRate * stepDuration.toNanos() / 1e9));
            double perDetector = totalRate / base.detectors().size();
            return new LoadSpec(
                    base.data(),
                    base.plan().toBuilder()
                            .rateHz(perDetector)
                            .records(records)
                            .warmup(warmup)
                            .build());
        }
    }

    private RateSweep() {}

    private static String ms(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * Runs the sweep; returns the steps measured (fewer when {@code interrupted} turned true).
     *
     * @param profile whether each step is profiled into its {@code profile/} (the JVMs started with
     *                {@link Profiler#JVM_OPTION})
     * @param facts   what summary lines the report starts with
     */
    public static List<SweepStep> run(
            RunningStack stack,
            LoadSpec base,
            JobSpec job,
            Plan plan,
            boolean profile,
            Path dir,
            List<String> facts,
            BooleanSupplier interrupted,
            PrintStream log)
            throws Exception {
        List<SweepStep> steps = new ArrayList<>();
        int n = plan.rates().size();
        for (int i = 0; i < n && !interrupted.getAsBoolean(); i++) {
            double rate = plan.rates().get(i);
            LoadSpec load = plan.step(base, rate);
            Path stepDir = dir.resolve(String.format(Locale.ROOT, "step-%02d-%.0f", i + 1, rate));
            log.printf(
                    Locale.ROOT,
                    "its-demo: sweep step %d/%d: %,.0f records/s (%.2f per detector), %,d records, %s ...%n",
                    i + 1,
                    n,
                    rate,
                    load.ratePerDetector(),
                    load.records(),
                    stepDir);
            Profiler profiler = profile
                    ? new Profiler(
                            stepDir.resolve("profile"),
                            stack.processes(),
                            load.warmupDuration().plus(load.steadyAfter()),
                            log)
                    : null;
            RunResult result =
                    stack.measure(load, job, BudgetHook.NONE, profiler == null ? LoadHook.NONE : profiler, stepDir);
            if (profiler != null) {
                profiler.write(result);
            }
            // An interrupted step stays in, with its exit code: what it measured is reported.
            SweepStep step = SweepStep.of(rate, load.records(), result);
            steps.add(step);
            log.printf(
                    Locale.ROOT,
                    "its-demo: sweep step %d/%d: offered %,.0f/s, delivered %,.0f/s, p50 %s, p99 %s, max %s ms "
                            + "(steady state, from intended), lost %d%n",
                    i + 1,
                    n,
                    rate,
                    step.deliveredPerS(),
                    ms(step.p50Ms()),
                    ms(step.p99Ms()),
                    ms(step.maxMs()),
                    step.lost());
            SweepReport.write(dir, steps, facts, interrupted.getAsBoolean() && i < n - 1);
        }
        if (steps.isEmpty() || interrupted.getAsBoolean()) {
            SweepReport.write(dir, steps, facts, interrupted.getAsBoolean());
        }
        return steps;
    }
}
