package org.itsrt.readings.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its generate}: a synthetic readings table for the six study stations. */
@Command(
        name = "its generate",
        sortOptions = false,
        description = "Writes synthetic readings of the six study stations in the canonical table format "
                + "(docs/canonical-table.md), every row labelled synthetic:seed=N. The same seed gives the same "
                + "file, byte for byte.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:could not write", "2:bad usage"})
public final class GenerateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--seed",
            defaultValue = "42",
            paramLabel = "N",
            description = "random seed (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(
            names = "--start",
            defaultValue = "2018-03-01",
            paramLabel = "DATE",
            description = "first Pacific calendar day, YYYY-MM-DD (default: ${DEFAULT-VALUE})")
    private LocalDate start;

    @Option(
            names = "--days",
            defaultValue = "31",
            paramLabel = "N",
            description = "number of days (default: ${DEFAULT-VALUE})")
    private int days;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "FILE",
            description = "the table to write: NAME.csv, or NAME.csv.gz for gzip")
    private Path out;

    @Option(names = "--verbose", description = "on failure, print the stack trace too")
    private boolean verbose;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    private boolean help;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return Commands.commandLine(new GenerateCommand(), GenerateCommand::verbose);
    }

    @Override
    public Integer call() throws Exception {
        String outName = out.getFileName().toString();
        if (!outName.endsWith(".csv") && !outName.endsWith(".csv.gz")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out must name a .csv or .csv.gz file");
        }
        if (days < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--days must be at least 1");
        }
        List<Reading> readings = new SyntheticGenerator(seed).generate(start, days);
        CanonicalTable.write(out, readings);
        spec.commandLine()
                .getOut()
                .println("wrote " + readings.size() + " synthetic readings (6 stations, "
                        + start + " .. " + start.plusDays(days - 1L) + " Pacific, " + Reading.syntheticSource(seed)
                        + ") to "
                        + out);
        spec.commandLine().getOut().flush();
        return 0;
    }

    boolean verbose() {
        return verbose;
    }
}
