package org.itsrt.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.commands.options.CapacityOptions;
import org.itsrt.commands.options.PlanFileOptions;
import org.itsrt.commands.options.SearchRunOptions;
import org.itsrt.experiments.capacity.CapacityPlan;
import org.itsrt.experiments.capacity.CapacityProgress;
import org.itsrt.experiments.capacity.CapacityReport;
import org.itsrt.experiments.capacity.CapacityResult;
import org.itsrt.experiments.capacity.CapacitySearch;
import org.itsrt.experiments.capacity.LoadEvaluator;
import org.itsrt.experiments.capacity.PipelineLoadEvaluator;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlanYaml;
import org.itsrt.scheduling.linux.LeftoverRestore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ./its capacity}: searches the most load the district workload serves within an SLO under
 * the plan's CPU budget ({@link CapacitySearch}), route requests per second or detectors by
 * {@code --axis}, and writes a folder with every point tried ({@link CapacityReport}). A command
 * of its own rather than a mode of tune: tune searches the budget of an experiment file's rows for
 * a fixed load, this the load of a run plan for a fixed budget, with another SLO (each judged
 * stream's p99 and lag).
 */
@Command(
        name = "its-capacity",
        sortOptions = false,
        description = {
            "Searches the most load that the district workload serves within an SLO under the plan's CPU budget "
                    + "on the job's process: route requests per second (--axis requests) or detectors of its "
                    + "generated district at its speed-up (--axis detectors). The lower bound first, doubling while "
                    + "it passes, then bisection; each point a few whole-pipeline runs that must all meet the SLO "
                    + "(requests -> answers, and on the detectors axis readings -> predictions: p99 within the "
                    + "target, no growing lag, every record delivered); where they disagree, more runs. Writes "
                    + "capacity.md, points.csv and a plot of p99 against the load."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a capacity was found (or the upper bound passed)",
            "1:no load in the range meets the SLO, or a run could not be measured (the report covers the points tried)",
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
    SearchRunOptions run;

    /** Measures the points in place of whole-pipeline runs when set (tests); null for the pipeline. */
    private final LoadEvaluator evaluator;

    public CapacityCommand() {
        this(null);
    }

    CapacityCommand(LoadEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(Commands.execute(new CapacityCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter console = commandSpec.commandLine().getOut();
        CapacityPlan plan;
        try {
            plan = CapacityPlan.of(
                    run.over(planFile.baseOr(ProjectPaths.locate().root().resolve(DEFAULT_PLAN))), search.request());
            if (planFile.printOnly()) {
                // A run checks its job in prepare; a plan only printed is checked here.
                PlanRunner.checkJob(plan.pointPlan());
            }
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
        Path dir = RunFolders.orDefault(run.out(), "capacity");
        String unusable = SearchRunOptions.unusable(
                dir, CapacityReport.MARKDOWN, "a capacity search", plan.pointPlan(), evaluator == null);
        if (unusable != null) {
            err.println("its-capacity: " + unusable);
            err.flush();
            return 2;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("plan.yaml"), RunPlanYaml.write(plan.pointPlan()));
        // A search killed with kill -9 left its budget on a cluster process that may still run.
        LeftoverRestore.atStart("its-capacity", err);
        LoadEvaluator points = evaluator != null ? evaluator : new PipelineLoadEvaluator(plan, dir, System.err);
        CapacityResult result =
                new CapacitySearch(plan.settings(), points, new CapacityProgress(plan.axis(), System.err)).run();
        String answer = CapacityReport.write(dir, plan, result);
        console.println();
        console.println(answer);
        console.println("results: " + dir.resolve(CapacityReport.MARKDOWN));
        console.flush();
        return result.capacity().isPresent() ? 0 : 1;
    }
}
