package org.itsrt.probe.compare;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.SloMsOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.probe.SloWindowOption;
import org.itsrt.probe.stats.LatencyKind;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code its-probe compare}: runs and the study's raw latencies in one table and one ECDF overlay. */
@Command(
        name = "compare",
        sortOptions = false,
        description = {
            "Sets latency distributions side by side: probe run folders (read from latencies.csv, or "
                    + "latency.hlog when the CSV is gone) and the study's raw files (one latency per line in TSC "
                    + "cycles; a folder of them, the study's study-latencies, adds all nine configurations). "
                    + "Writes compare.md (count, min, p50, p90, p99, p99.9, max in ms and the SLO-violation ratio per "
                    + "row, in the style of the study's tables) and ECDF overlays, linear and log x, as PNG and SVG."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:an input could not be read (the message names it)", "2:bad usage"})
public final class CompareCommand implements Callable<Integer> {

    @Mixin
    SloMsOption sloOption;

    @Mixin
    SloWindowOption windowOption;

    @Mixin
    OutputOption output;

    @Mixin
    VerboseOption verboseOption;

    @Mixin
    HelpOption help;

    /** Which latency of a probe run to compare. */
    public enum Latency {
        intended,
        sent
    }

    @Spec
    private CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "RUN",
            description = "a probe run folder (or a demo run folder holding one in probe/), its latencies.csv or "
                    + "latency.hlog, a study *_latency.txt file, or a folder of study files")
    List<Path> inputs = new ArrayList<>();

    @Option(
            names = "--cycles-per-ns",
            defaultValue = "2.1",
            paramLabel = "RATE",
            description = "TSC cycles per ns of the study's files: milliseconds = cycles / (RATE x 1e6) "
                    + "(default: ${DEFAULT-VALUE}, the study's fixed 2.1 GHz)")
    double cyclesPerNs;

    @Option(
            names = "--latency",
            defaultValue = "intended",
            paramLabel = "intended|sent",
            description = "latency of probe runs: from the intended send time, or from the send stamp (closest "
                    + "to what the study measured) (default: ${DEFAULT-VALUE})")
    Latency latency;

    @Override
    public Integer call() throws Exception {
        CommandLine cmd = spec.commandLine();
        if (!(cyclesPerNs > 0) || Double.isInfinite(cyclesPerNs)) {
            throw new CommandLine.ParameterException(cmd, "--cycles-per-ns must be a number > 0, got " + cyclesPerNs);
        }
        for (String problem : new String[] {sloOption.problem(), windowOption.problem()}) {
            if (problem != null) {
                throw new CommandLine.ParameterException(cmd, problem);
            }
        }
        LatencyKind kind = latency == Latency.sent ? LatencyKind.FROM_SENT : LatencyKind.FROM_INTENDED;
        Path out = output.path() != null ? output.path() : Path.of("results", "compare");
        long sloNs = Math.round(sloOption.ms() * 1e6);
        List<Distribution> rows = new ArrayList<>();
        for (Path input : inputs) {
            rows.addAll(read(input, kind, windowOption.window().toNanos(), sloNs));
        }
        rows = uniqueLabels(rows);
        String table = CompareReport.write(
                out, rows, sloOption.ms(), windowOption.window().toNanos() / 1e9);
        PrintWriter console = cmd.getOut();
        console.print(table);
        console.println("wrote " + out.resolve(CompareReport.MARKDOWN) + " and the ECDF plots (" + CompareReport.ECDF
                + ", " + CompareReport.ECDF_LOG + "; .png and .svg)");
        console.flush();
        return 0;
    }

    /** Rows keep their names unless two share one; then the later ones get " #2", " #3", ... */
    static List<Distribution> uniqueLabels(List<Distribution> rows) {
        Map<String, Integer> seen = new HashMap<>();
        List<Distribution> unique = new ArrayList<>();
        for (Distribution row : rows) {
            int n = seen.merge(row.label(), 1, Integer::sum);
            unique.add(n == 1 ? row : row.withLabel(row.label() + " #" + n));
        }
        return unique;
    }

    private List<Distribution> read(Path input, LatencyKind kind, long windowNs, long sloNs) throws Exception {
        if (!Files.exists(input)) {
            throw new NoSuchFileException(input.toString());
        }
        if (Files.isDirectory(input)) {
            if (RunLatencies.isRunFolder(input)) {
                return List.of(RunLatencies.read(input, kind, windowNs, sloNs));
            }
            Path demoProbe = input.resolve(RunLatencies.DEMO_PROBE_FOLDER);
            if (RunLatencies.isRunFolder(demoProbe)) {
                return List.of(RunLatencies.read(demoProbe, kind, windowNs, sloNs));
            }
            if (StudyLatencies.isStudyFolder(input)) {
                return StudyLatencies.folder(input, cyclesPerNs);
            }
            throw new IllegalArgumentException(input + " is neither a probe run folder (latencies.csv, latency.hlog) "
                    + "nor a folder of the study's *_latency.txt files");
        }
        String name = input.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".txt")) {
            return List.of(StudyLatencies.distribution(input, cyclesPerNs));
        }
        return List.of(RunLatencies.read(input, kind, windowNs, sloNs));
    }
}
