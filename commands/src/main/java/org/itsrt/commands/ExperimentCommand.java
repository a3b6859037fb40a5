package org.itsrt.commands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.commands.options.ExistingStackOptions;
import org.itsrt.commands.options.JobPlanOptions;
import org.itsrt.commands.options.PrintPlanOption;
import org.itsrt.commands.options.RowChoiceOptions;
import org.itsrt.experiments.report.Environment;
import org.itsrt.experiments.report.ExperimentReport;
import org.itsrt.experiments.run.ExperimentRunner;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./its experiment FILE.yaml}: runs an experiment file and writes its results folder. */
@Command(
        name = "its-experiment",
        sortOptions = false,
        description = {
            "Runs an experiment file (YAML): for each row and repetition, runs the whole pipeline (./its demo: "
                    + "a fresh local broker and Flink cluster, or the ones at --bootstrap-servers and --flink-rest), applies "
                    + "the row once the job is live (a Linux budget on the cluster's process, or a study row through "
                    + "--row-command: in Xen's dom0, or on a Docker Compose stack's TaskManager containers), restores "
                    + "after the run; then writes one results folder with results.md (comparison "
                    + "across rows, every run, environment), runs.csv and plots."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every run measured every record",
            "1:a run failed (the report covers the runs done)",
            "2:bad file or usage (the message names the field)"
        })
public final class ExperimentCommand implements Callable<Integer> {

    @Mixin
    HelpOption help;

    @Parameters(
            index = "0",
            paramLabel = "FILE",
            description = "the experiment file, e.g. experiments/linux-budgets.yaml")
    Path file;

    @Option(
            names = "--rewrite-report",
            paramLabel = "DIR",
            description =
                    "rewrite the report of an existing results folder from its runs (e.g. with --study); run nothing")
    Path report;

    @Mixin
    PrintPlanOption printPlan;

    @Mixin
    RowChoiceOptions choice;

    @Mixin
    OutputOption output;

    @Mixin
    DataOption data;

    @Mixin
    JobPlanOptions job;

    @Mixin
    JobJarOption jobJar;

    @Mixin
    ExistingStackOptions existing;

    @Option(
            names = "--row-command",
            paramLabel = "COMMAND",
            description = "xen-* backends: the command that applies a study row where the job runs, called as "
                    + "COMMAND ROW once the job is live and COMMAND --restore after the run: on Xen, e.g. \"ssh "
                    + "root@dom0 /opt/its-rt/xen-configs/apply-row.sh\"; on the Docker Compose stack, "
                    + "docker/apply-row.sh (the same rows on the TaskManager containers)")
    String rowCommand;

    @Option(
            names = "--study",
            paramLabel = "DIR",
            description = "the study's raw latency files to overlay (default: the file's `study`, or none)")
    Path study;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(Commands.execute(new ExperimentCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        ExperimentSpec spec;
        try {
            spec = ExperimentSpec.read(file);
        } catch (SpecException e) {
            System.err.println("its-experiment: " + e.getMessage());
            return 2;
        }
        if (printPlan.given()) {
            try {
                spec = withOptions(choice.choose(spec, file));
                for (ExperimentSpec.Row row : spec.rows()) {
                    PlanRunner.checkJob(row.plan());
                }
            } catch (IllegalArgumentException e) {
                System.err.println("its-experiment: " + e.getMessage());
                return 2;
            }
            System.out.printf(
                    Locale.ROOT,
                    "%s: backend %s, %d row(s) x %d repetition(s), %,d records each%n",
                    spec.name(),
                    spec.backend().yamlName,
                    spec.rows().size(),
                    spec.repetitions(),
                    spec.records());
            for (ExperimentSpec.Row row : spec.rows()) {
                System.out.println("  " + row.label() + ": " + Budgets.describeWithJob(row.plan()));
            }
            return 0;
        }
        if (report != null) {
            if (!Files.isDirectory(report.resolve("runs"))) {
                System.err.println("its-experiment: --rewrite-report " + report + ": not a results folder (no runs/)");
                return 2;
            }
            List<RowRun> existing = ExperimentRunner.readExisting(spec, report);
            Path studyDir = study != null ? study : studyFromSpec(spec);
            System.out.print(
                    ExperimentReport.write(report, spec, file, existing, Environment.facts(existing), studyDir));
            System.out.println(
                    "results: " + report.resolve(ExperimentReport.MARKDOWN) + " (" + existing.size() + " run(s) read)");
            return 0;
        }
        String problem = deploymentProblem(spec);
        if (problem == null) {
            try {
                // The rows chosen, each plan with the options over it, resolved as a run resolves it.
                spec = withOptions(choice.choose(spec, file));
                for (ExperimentSpec.Row row : spec.rows()) {
                    PlanRunner.prepare(row.plan());
                }
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
        }
        if (problem != null) {
            System.err.println("its-experiment: " + problem);
            return 2;
        }
        Path dir = RunFolders.orDefault(output.path(), "experiments", spec.name());
        if (Files.exists(dir.resolve(ExperimentReport.MARKDOWN)) || Files.exists(dir.resolve("runs"))) {
            System.err.println("its-experiment: --out " + dir + " already holds an experiment's runs; give another");
            return 2;
        }
        Files.createDirectories(dir);
        Files.copy(file, dir.resolve("experiment.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // An experiment killed with kill -9 left its budget on a cluster process that may still run.
        org.itsrt.scheduling.linux.LeftoverRestore.atStart("its-experiment", System.err);
        List<RowRun> results = new ExperimentRunner(spec, System.err).run(dir);
        Path studyDir = study != null ? study : studyFromSpec(spec);
        String table = ExperimentReport.write(dir, spec, file, results, Environment.facts(results), studyDir);
        System.out.println();
        System.out.println("Experiment " + spec.name() + " (steady state, ms from intended):");
        System.out.print(table);
        System.out.println("results: " + dir.resolve(ExperimentReport.MARKDOWN));
        boolean complete = results.size() == spec.rows().size() * spec.repetitions()
                && results.stream().allMatch(r -> r.exitCode() == 0);
        return complete ? 0 : 1;
    }

    /** Every row's plan with the options given over it. */
    private ExperimentSpec withOptions(ExperimentSpec spec) {
        return spec.withRows(
                spec.rows().stream().map(r -> r.withPlan(this::withOptions)).toList());
    }

    /** A row's plan with the options given over it: inputs, parts that already run, the row command. */
    private RunPlan withOptions(RunPlan plan) {
        RunPlan.Builder over = plan.toBuilder();
        choice.applyTo(over);
        if (data.given() != null) {
            over.load().data(data.given());
        }
        job.applyTo(over.job());
        if (jobJar.given() != null) {
            over.stack().jobJar(jobJar.given());
        }
        existing.applyTo(over);
        if (rowCommand != null) {
            over.budget().rowCommand(rowCommand);
        }
        return over.build();
    }

    /** Whether the rows can be applied where the pipeline runs; null when they can, else why not. */
    private String deploymentProblem(ExperimentSpec spec) {
        boolean xen = spec.backend().isXen();
        if (xen && rowCommand == null) {
            return file + ": backend " + spec.backend().yamlName + " sets its rows where the job runs: give "
                    + "--row-command (on Xen, how to reach xen-configs/apply-row.sh in dom0; on the Docker Compose "
                    + "stack, docker/apply-row.sh) and, for the "
                    + "study's layout, --bootstrap-servers and --flink-rest (docs/experiments.md, section 5). "
                    + "--print-plan prints the rows.";
        }
        if (!xen && rowCommand != null) {
            return "--row-command applies xen-* rows; " + file + " has backend " + spec.backend().yamlName;
        }
        if (spec.backend().isLinux() && existing.flinkRest() != null && existing.clusterPid() == null) {
            return "backend " + spec.backend().yamlName
                    + " applies rows to the process that runs the job's tasks: with "
                    + "--flink-rest give --cluster-pid (the TaskManager's pid on this host)";
        }
        return null;
    }

    /** The folder of the study's raw files (docs/results.md's STUDY_DATA), for {@code study: auto}. */
    static final String STUDY_DATA = "ITS_STUDY_DATA";

    private Path studyFromSpec(ExperimentSpec spec) {
        if (spec.study() == null) {
            return null;
        }
        if ("auto".equals(spec.study())) {
            String data = System.getenv(STUDY_DATA);
            return data == null || data.isBlank() ? null : Path.of(data, "study-latencies");
        }
        return file.toAbsolutePath().getParent().resolve(spec.study()).normalize();
    }
}
