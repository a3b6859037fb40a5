package org.itsrt.commands.options;

import java.util.List;
import org.itsrt.cli.options.SweepOptions;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.PhasePlan;
import org.itsrt.pipeline.sweep.RateSweep;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What a run measures on its stack: the phases part of a run plan. */
public final class PhasePlanOptions {

    @Option(
            names = "--with-floor",
            description = "first the identity floor, then the job, one after the other on the same broker and cluster: "
                    + "floor/ and job/ run folders and compare.md, the job's cost over the floor from one invocation")
    boolean withFloor;

    @Mixin
    SweepOptions sweep;

    @Option(
            names = "--profile",
            description = "profile every JVM of the run from the first record sent to the last measured: JDK Flight "
                    + "Recorder on the broker, the cluster's processes and this JVM, and each process's CPU time; "
                    + "writes profile/ (profile.md: cores and CPU µs per record per JVM, hot methods, heaviest "
                    + "stacks, allocation; the .jfr files; cpu.csv)")
    boolean profile;

    /**
     * Sets the options given over the plan's phases. A sweep reads the load's options its own way:
     * each step has its own rate and records, and {@code --warmup} is each step's warm-up time.
     */
    public void applyTo(PhasePlan.Builder phases, PhasePlan base, LoadPlanOptions load) {
        if (profile) {
            phases.profile(true);
        }
        if (withFloor) {
            phases.run(PhasePlan.Run.FLOOR_THEN_JOB).sweep(null);
        }
        RateSweep.Plan steps = base.sweep();
        if (sweep.given()) {
            RateSweep.Plan.RATES.require(!load.quick() && !withFloor, "goes without --quick and --with-floor");
            List<Double> rates;
            try {
                rates = sweep.rates();
            } catch (IllegalArgumentException e) {
                throw RateSweep.Plan.RATES.refused(": " + e.getMessage());
            }
            steps = new RateSweep.Plan(
                    rates, steps != null ? steps.stepDuration() : null, steps != null ? steps.warmup() : null);
            phases.run(PhasePlan.Run.SWEEP);
        }
        boolean sweeping = sweep.given() || (base.run() == PhasePlan.Run.SWEEP && !withFloor);
        RateSweep.Plan.STEP_DURATION.require(sweep.stepDuration() == null || sweeping, "goes with --sweep");
        if (!sweeping) {
            return;
        }
        LoadPlan.WARMUP_RECORDS.require(
                load.warmup().time() != null || !load.warmup().given(),
                "does not apply to a sweep: --sweep takes --warmup TIME, the same time at every step's rate");
        phases.sweep(new RateSweep.Plan(
                steps.rates(),
                sweep.stepDuration() != null ? sweep.stepDuration() : steps.stepDuration(),
                load.warmup().time() != null ? load.warmup().time() : steps.warmup()));
    }
}
