package org.itsrt.readings.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.OneLineErrors;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.SeedOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its generate}: a synthetic readings table for the six study stations. */
@Command(
        name = "its generate",
        sortOptions = false,
        description = "Writes synthetic readings of the six study stations in the canonical table format "
                + "(docs/canonical-table.md), every row labelled synthetic:seed=N. The same seed gives the same "
                + "file, byte for byte (--seed, default " + GenerateCommand.DEFAULT_SEED + ").",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:could not write", "2:bad usage"})
public final class GenerateCommand implements Callable<Integer> {

    /** The seed of the committed sample. */
    static final long DEFAULT_SEED = 42;

    @Mixin
    SeedOption seedOption;

    @Mixin
    OutputOption output;

    @Mixin
    VerboseOption verbose;

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

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

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new GenerateCommand()));
    }

    @Override
    public Integer call() throws Exception {
        if (output.path() == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--out is required: the table to write, NAME.csv or NAME.csv.gz");
        }
        Path out = output.path();
        long seed = seedOption.orElse(DEFAULT_SEED);
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
}
