package org.itsrt.routing.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.itsrt.cli.OneLineErrors;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.options.DetectorsOption;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.SeedOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import org.itsrt.routing.district.DistrictGenerator;
import org.itsrt.routing.district.StudyProfiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code its generate}: synthetic readings, either of the six study stations as a canonical
 * table, or ({@code --detectors N}) of a whole generated district as PeMS clearinghouse files.
 * It lives here rather than in its-readings because the district is laid out on this module's
 * freeway network.
 */
@Command(
        name = "its generate",
        sortOptions = false,
        description = {
            "Writes synthetic readings, labelled synthetic everywhere; the same seed gives the same output, byte for "
                    + "byte (--seed, default " + GenerateCommand.DEFAULT_SEED + ").",
            "Without --detectors: readings of the six study stations in the canonical table format "
                    + "(docs/canonical-table.md), every row labelled synthetic:seed=N; --out is the table.",
            "With --detectors N: a district of N mainline detectors on a grid of freeways with interchanges, as PeMS "
                    + "clearinghouse files (one metadata file, one gzipped 5-minute station file per day) and a "
                    + DistrictGenerator.LABEL_FILE + " saying what they are; --out is a new or empty folder. Each "
                    + "detector follows the weekly shape of one of the study stations in --profiles. The graph of "
                    + "the written metadata is checked to be one district (docs/import.md, \"A generated district\")."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:could not write, or bad --profiles", "2:bad usage"})
public final class GenerateCommand implements Callable<Integer> {

    /** The seed of the committed sample. */
    static final long DEFAULT_SEED = 42;

    static final int DEFAULT_TABLE_DAYS = 31;

    /**
     * A district's default: one day. A run replays each detector at 10 readings/s, so a day (288
     * readings) lasts 28.8 s before the producers wrap round to its start, enough for the windows
     * of 12 readings the job predicts from; more days only add import time and heap (docs/import.md).
     */
    static final int DEFAULT_DISTRICT_DAYS = 1;

    /**
     * The smallest district: its grid has three freeways each way (SyntheticFreewayNetwork.Spec
     * .forDetectors) about 2 km apart; with fewer detectors the region shrinks until parallel
     * freeways come within the 1 km interchange radius and would be linked as if they crossed.
     */
    static final int MIN_DETECTORS = 100;

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

    @Mixin
    DetectorsOption detectorsOption;

    /** The district's size, or null for the six study stations' table. */
    private Integer detectors;

    @Option(
            names = "--profiles",
            paramLabel = "TABLE",
            description = "with --detectors: the canonical table whose six study stations give the detectors' weekly "
                    + "shapes, a whole week at least (default: the committed sample, " + ProjectPaths.SAMPLE_TABLE
                    + ")")
    private Path profiles;

    @Option(
            names = "--start",
            defaultValue = "2018-03-01",
            paramLabel = "DATE",
            description = "first Pacific calendar day, YYYY-MM-DD (default: ${DEFAULT-VALUE})")
    private LocalDate start;

    @Option(
            names = "--days",
            paramLabel = "N",
            description = "number of days (default: " + DEFAULT_TABLE_DAYS + "; with --detectors: "
                    + DEFAULT_DISTRICT_DAYS + ")")
    private Integer days;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new GenerateCommand()));
    }

    @Override
    public Integer call() throws Exception {
        try {
            detectors = detectorsOption.count();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (output.path() == null) {
            throw usage(
                    detectors == null
                            ? "--out is required: the table to write, NAME.csv or NAME.csv.gz"
                            : "--out is required: the folder to write the district into");
        }
        int dayCount = days != null ? days : detectors == null ? DEFAULT_TABLE_DAYS : DEFAULT_DISTRICT_DAYS;
        if (dayCount < 1) {
            throw usage("--days must be at least 1");
        }
        return detectors == null ? writeTable(dayCount) : writeDistrict(dayCount);
    }

    private int writeTable(int dayCount) throws IOException {
        if (profiles != null) {
            throw usage("--profiles applies only with --detectors");
        }
        Path out = output.path();
        long seed = seedOption.orElse(DEFAULT_SEED);
        String outName = out.getFileName().toString();
        if (!outName.endsWith(".csv") && !outName.endsWith(".csv.gz")) {
            throw usage("--out must name a .csv or .csv.gz file");
        }
        List<Reading> readings = new SyntheticGenerator(seed).generate(start, dayCount);
        CanonicalTable.write(out, readings);
        spec.commandLine()
                .getOut()
                .println("wrote " + readings.size() + " synthetic readings (6 stations, "
                        + start + " .. " + start.plusDays(dayCount - 1L) + " Pacific, " + Reading.syntheticSource(seed)
                        + ") to "
                        + out);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private int writeDistrict(int dayCount) throws IOException {
        if (detectors < MIN_DETECTORS) {
            throw usage("--detectors must be at least " + MIN_DETECTORS + " mainline detectors, got " + detectors);
        }
        Path dir = output.path();
        if (dir.getFileName().toString().endsWith(".csv")
                || dir.getFileName().toString().endsWith(".csv.gz")) {
            throw usage("with --detectors, --out is a folder, not a table: got " + dir);
        }
        if (Files.exists(dir) && !isEmptyFolder(dir)) {
            throw usage("--out " + dir + " must be a new or empty folder, so that the district's files are all "
                    + "that an import of it reads");
        }
        long seed = seedOption.orElse(DEFAULT_SEED);
        String profilesShown = profiles != null ? profiles.toString() : ProjectPaths.SAMPLE_TABLE;
        Path profilesTable = profiles != null ? profiles : ProjectPaths.locate().sampleTable();
        long started = System.nanoTime();

        StudyProfiles shapes = StudyProfiles.from(profilesTable, profilesShown);
        String command = "./its generate --detectors " + detectors + " --seed " + seed + " --start " + start
                + " --days " + dayCount + " --profiles " + profilesShown + " --out FOLDER";
        DistrictGenerator.Result result =
                new DistrictGenerator(seed, detectors, shapes).write(dir, start, dayCount, command, shapes.source());

        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                "wrote a synthetic district (%s): %d mainline detectors (%d stations in the metadata), %d readings, "
                        + "%s .. %s Pacific, %.1f MB, in %.1f s, to %s%n",
                Reading.syntheticSource(seed),
                result.mainlineDetectors(),
                result.stations(),
                result.readings(),
                start,
                start.plusDays(dayCount - 1L),
                result.bytes() / 1e6,
                (System.nanoTime() - started) / 1e9,
                dir);
        out.printf(
                "its graph: %d detectors, %d segments (%d interchange links), core of %d detectors (%s)%n",
                result.graph().detectors().size(),
                result.graph().segments().size(),
                result.interchangeLinks(),
                result.check().core().size(),
                result.metaFile().getFileName());
        out.flush();
        return 0;
    }

    private static boolean isEmptyFolder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
