package org.itsrt.readings.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.OneLineErrors;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.pems.PemsImporter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its import}: PeMS files in, one canonical readings table and its quality report out. */
@Command(
        name = "its import",
        sortOptions = false,
        description = "Imports PeMS report exports (.xlsx) and clearinghouse files (dNN_text_station_5min_*.txt[.gz], "
                + "dNN_text_meta_*.txt) into one canonical readings table (docs/canonical-table.md), and writes "
                + "its quality report next to it as NAME.quality.md and NAME.quality.csv.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:imported", "1:bad input (the message names file, row and column)", "2:bad usage"})
public final class ImportCommand implements Callable<Integer> {

    @Mixin
    OutputOption output;

    @Mixin
    VerboseOption verbose;

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--from",
            required = true,
            arity = "1..*",
            paramLabel = "PATH",
            description = "PeMS files, or directories searched recursively")
    private List<Path> from;

    @Option(
            names = "--stations",
            split = ",",
            paramLabel = "ID",
            description = "import only these VDS ids (comma-separated); default: all")
    private List<Long> stations = List.of();

    @Option(
            names = "--meta",
            paramLabel = "FILE",
            description = "clearinghouse metadata file; the lane counts of its stations win over the data files'")
    private Path meta;

    @Option(
            names = "--lenient",
            description = "skip malformed rows and files, counting them in the report, instead of failing")
    private boolean lenient;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new ImportCommand()));
    }

    @Override
    public Integer call() throws Exception {
        if (output.path() == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--out is required: the table to write, NAME.csv or NAME.csv.gz");
        }
        Path out = output.path();
        String outName = out.getFileName().toString();
        if (!outName.endsWith(".csv") && !outName.endsWith(".csv.gz")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out must name a .csv or .csv.gz file");
        }
        PrintWriter console = spec.commandLine().getOut();
        PemsImporter importer =
                new PemsImporter(new PemsImporter.Options(new HashSet<>(stations), meta, lenient), console::println);
        PemsImporter.Result result = importer.importFrom(from);
        console.println();
        console.print(result.report().toTextTable());
        console.println();
        if (result.readings().isEmpty()) {
            throw new IllegalStateException("no readings found in " + from + "; nothing written");
        }
        CanonicalTable.write(out, result.readings());
        List<Path> reports = result.report().writeNextTo(out);
        console.println("wrote " + result.readings().size() + " readings of "
                + result.report().stations().size() + " stations to " + out);
        console.println("wrote the quality report to " + reports.get(0) + " and " + reports.get(1));
        console.flush();
        return 0;
    }
}
