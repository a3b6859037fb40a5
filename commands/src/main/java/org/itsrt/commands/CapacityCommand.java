package org.itsrt.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.commands.options.CapacityOptions;
import org.itsrt.commands.options.ExistingStackOptions;
import org.itsrt.commands.options.LoadPlanOptions;
import org.itsrt.commands.options.PlanFileOptions;
import org.itsrt.experiments.capacity.CapacityPlan;
import org.itsrt.experiments.capacity.CapacityProgress;
import org.itsrt.experiments.capacity.CapacityReport;
import org.itsrt.experiments.capacity.CapacityResult;
import org.itsrt.experiments.capacity.CapacitySearch;
import org.itsrt.experiments.capacity.PipelineRateEvaluator;
import org.itsrt.experiments.capacity.RateEvaluator;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import org.itsrt.scheduling.linux.LeftoverRestore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ./its capacity}: searches the most route requests per second the district workload
 * serves within an SLO under the plan's CPU budget ({@link CapacitySearch}), and writes a folder
 * with every point tried ({@link CapacityReport}). A command of its own rather than a mode of
 * tune: tune searches the budget of an experiment file's rows for a fixed load, this the load of a
 * run plan for a fixed budget, with another SLO (requests -> answers and their lag).
 */
@Command(
        name = "its-capacity",
        sortOptions = false,
        description = {
            "Searches the most route requests per second that the district workload answers within an SLO "
                    + "under the plan's CPU budget on the job's process: the lower rate first, doubling while it "
                    + "passes, then bisection; each point a few whole-pipeline runs that must all meet the SLO "
                    + "(requests -> answers p99 within the target, no growing lag, every request answered); where "
                    + "they disagree, more runs. Writes capacity.md, points.csv and a plot of p99 against the rate."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a capacity was found (or the upper rate passed)",
            "1:no rate in the range meets the SLO, or a run could not be measured (the report covers the points tried)",
            "2:bad plan or usage (the message names the option or field)"
        })
public final class CapacityCommand implements Callable<Integer> {

    /** The plan without --plan: 4,800 detectors, the whole cluster in one child JVM, 100 % of two CPUs. */
    public static final String DEFAULT_PLAN = "experiments/plans/capacity-district.yaml";

    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandSpec commandSpec;

    @Mixin
    CapacityOptions search;

    @Mixin
    PlanFileOptions planFile;

    @Mixin
    LoadPlanOptions load;

    @Mixin
    ModelOption model;

    @Mixin
    JobJarOption jobJar;

    @Mixin
    OutputOption output;

    @Mixin
    ExistingStackOptions existing;

    /** Measures the points in place of whole-pipeline runs when set (tests); null for the pipeline. */
    private final RateEvaluator evaluator;

    public CapacityCommand() {
        this(null);
    }

    CapacityCommand(RateEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new CapacityCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter console = commandSpec.commandLine().getOut();
        CapacityPlan plan;
        try {
            plan = CapacityPlan.of(runPlan(), search.request());
        } catch (IllegalArgumentException | SpecException e) {
            err.println("its-capacity: " + e.getMessage().replace("\n", "\nits-capacity: "));
            err.flush();
            return 2;
        }
        console.print(plan.describe());
        if (planFile.printOnly()) {
            console.println();
            console.print(RunPlanYaml.write(plan.pointPlan()));
            console.flush();
            return 0;
        }
        console.flush();
        Path dir = RunFolders.orDefault(output.path(), "capacity");
        String unusable = Files.exists(dir.resolve(CapacityReport.MARKDOWN))
                ? "--out " + dir + " already holds a capacity search (" + CapacityReport.MARKDOWN + ")"
                : evaluator != null ? null : unusable(plan.pointPlan());
        if (unusable != null) {
            err.println("its-capacity: " + unusable);
            err.flush();
            return 2;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("plan.yaml"), RunPlanYaml.write(plan.pointPlan()));
        // A search killed with kill -9 left its budget on a cluster process that may still run.
        LeftoverRestore.atStart("its-capacity", err);
        RateEvaluator points = evaluator != null ? evaluator : new PipelineRateEvaluator(plan, dir, System.err);
        CapacityResult result = new CapacitySearch(plan.settings(), points, new CapacityProgress(System.err)).run();
        String answer = CapacityReport.write(dir, plan, result);
        console.println();
        console.println(answer);
        console.println("results: " + dir.resolve(CapacityReport.MARKDOWN));
        console.flush();
        return result.capacity().isPresent() ? 0 : 1;
    }

    /** The plan file's (or the default plan's) fields with the options given over them. */
    private RunPlan runPlan() {
        RunPlan.Builder over = planFile.baseOr(ProjectPaths.locate().root().resolve(DEFAULT_PLAN));
        load.applyTo(over.load());
        if (model.given() != null) {
            over.job().model(model.given());
        }
        if (jobJar.given() != null) {
            over.stack().jobJar(jobJar.given());
        }
        existing.applyTo(over);
        return over.build();
    }

    /** Why the points' plan cannot run here (an input missing), or null; the search space is printed first. */
    private static String unusable(RunPlan pointPlan) throws Exception {
        try {
            PlanRunner.prepare(pointPlan);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
