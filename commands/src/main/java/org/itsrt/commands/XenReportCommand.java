package org.itsrt.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.experiments.report.CpuShareReport;
import org.itsrt.scheduling.budget.StudyRows;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code ./its xen report}: the table and plot of the CPU shares {@code ./its xen shares} measured,
 * which calls it when its windows are done; run alone it redraws them from a {@code shares.tsv}.
 */
@Command(
        name = "its xen report",
        sortOptions = false,
        description = {
            "Writes shares.md (a row per study row: what it allows and the mean share, min-max, per place; rows off "
                    + "what they allow named first), shares.csv and shares.png/.svg from the windows ./its xen shares "
                    + "measured (shares.tsv)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "2:bad usage or table (the message names the file and line)"})
public final class XenReportCommand implements Callable<Integer> {

    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandSpec commandSpec;

    @Option(names = "--in", required = true, paramLabel = "FILE", description = "the windows: shares.tsv")
    Path in;

    @Option(names = "--out", paramLabel = "DIR", description = "where the report goes (default: the folder of --in)")
    Path out;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(Commands.execute(new XenReportCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter console = commandSpec.commandLine().getOut();
        Path dir = out != null ? out : in.toAbsolutePath().getParent();
        String verdict;
        try {
            verdict = CpuShareReport.write(
                    in, dir, StudyRows.read(ProjectPaths.locate().studyRows()));
        } catch (IllegalArgumentException | MissingDefaultException e) {
            err.println("its xen report: " + e.getMessage());
            err.flush();
            return 2;
        }
        console.println(verdict);
        console.println("report: " + dir.resolve(CpuShareReport.MARKDOWN));
        console.flush();
        return 0;
    }
}
