package org.itsrt.probe.accuracy;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.VerboseOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code its-probe accuracy}: what degraded predictions cost, against a run the LSTM served alone. */
@Command(
        name = "accuracy",
        sortOptions = false,
        description = {
            "Holds the predictions of runs against a reference run of the same load in which the LSTM predicted "
                    + "every reading (a run without --degrade), record by record (detector, seq), from the "
                    + "runs' latencies.csv. Writes accuracy.md and accuracy.csv: per run the records matched, "
                    + "how many were degraded, the mean squared error of the served predictions against the "
                    + "reference's over all records and over the degraded ones, and how many records the LSTM "
                    + "served in both runs with different predictions (0 when the runs replayed the same readings). "
                    + "Details: docs/deadlines.md."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:written",
            "1:a run could not be read, the reference has degraded records, or a run shares no record with it",
            "2:bad usage"
        })
public final class AccuracyCommand implements Callable<Integer> {

    @Mixin
    OutputOption output;

    @Mixin
    VerboseOption verboseOption;

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--reference",
            required = true,
            paramLabel = "RUN",
            description = "the all-LSTM run of the same load: a probe run folder, a demo or experiment run holding "
                    + "one in probe/, or its latencies.csv")
    Path reference;

    @Parameters(
            arity = "1..*",
            paramLabel = "RUN",
            description = "runs whose served predictions to measure, as --reference")
    List<Path> runs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        RunPredictions all = RunPredictions.read(reference);
        List<Accuracy> rows = new ArrayList<>();
        for (Path run : runs) {
            rows.add(Accuracy.of(all, RunPredictions.read(run)));
        }
        Path out = output.path() != null ? output.path() : Path.of("results", "accuracy");
        String table = AccuracyReport.write(out, all, rows);
        PrintWriter console = spec.commandLine().getOut();
        console.print(table);
        console.println("wrote " + out.resolve(AccuracyReport.MARKDOWN) + " and " + AccuracyReport.CSV);
        console.flush();
        return 0;
    }
}
