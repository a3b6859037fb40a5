package org.itsrt.commands;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.commands.options.JobPlanOptions;
import org.itsrt.commands.options.LoadPlanOptions;
import org.itsrt.commands.options.PhasePlanOptions;
import org.itsrt.commands.options.PlanFileOptions;
import org.itsrt.commands.options.StackPlanOptions;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ./its demo}: one run plan ({@link RunPlan}) made from a plan file and the options, then
 * printed ({@code --print-plan}) or run by the pipeline library ({@link PlanRunner}). The
 * options are the plan's parts, one mixin each; a bad value fails here, in one line naming the
 * option and the plan's field, before anything starts.
 */
@Command(
        name = "its-demo",
        sortOptions = false,
        description = {
            "Runs the whole pipeline on this machine: a local Kafka broker (KRaft), the Flink job on a standalone "
                    + "cluster started from Flink's own entry points (or a MiniCluster, or a cluster that already "
                    + "runs), one producer per detector and the latency probe; prints progress, then the latency "
                    + "summary; writes a run folder (summary.md, the probe's and the producers' reports). The options "
                    + "make a run plan: --print-plan shows it, --plan FILE runs one."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:a part failed to start or the run failed (the message says which)",
            "2:bad usage, plan or option (the message names it)",
            "130:interrupted (Ctrl-C); what was measured is still reported"
        })
public final class DemoCommand implements Callable<Integer> {

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

    @Mixin
    PlanFileOptions planFile;

    @Mixin
    LoadPlanOptions load;

    @Mixin
    JobPlanOptions job;

    @Mixin
    PhasePlanOptions phases;

    @Mixin
    StackPlanOptions stack;

    @Mixin
    OutputOption output;

    public static void main(String[] args) {
        // The probe draws its plots off-screen.
        System.setProperty("java.awt.headless", "true");
        System.exit(Commands.execute(new DemoCommand(), args));
    }

    /** The plan the options make over the plan file (or every default without one). */
    RunPlan plan() {
        RunPlan.Builder plan = planFile.base();
        RunPlan base = plan.build();
        load.applyTo(plan.load());
        job.applyTo(plan.job());
        phases.applyTo(plan.phases(), base.phases(), load);
        stack.applyTo(plan.stack());
        if (output.path() != null) {
            plan.output().dir(output.path());
        }
        return plan.build();
    }

    @Override
    public Integer call() throws Exception {
        RunPlan plan;
        PlanRunner.Prepared prepared = null;
        try {
            plan = plan();
            if (planFile.printOnly()) {
                PlanRunner.checkJob(plan);
            } else {
                prepared = PlanRunner.prepare(plan, System.err);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (prepared == null) {
            System.out.print(RunPlanYaml.write(plan));
            return 0;
        }
        PlanRunner runner = new PlanRunner(System.out, System.err);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    runner.stop();
                    try {
                        // Wait for the report of what was measured and for the clean-up.
                        finished.await(90, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return runner.run(prepared);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
    }
}
