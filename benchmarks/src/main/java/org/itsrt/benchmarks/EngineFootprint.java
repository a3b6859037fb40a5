package org.itsrt.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.itsrt.cli.OneLineErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What an engine costs beside its latency, each engine in a JVM of its own (a native library's
 * memory is not given back when its model closes): the memory the process grows by when the
 * model opens and after it has predicted (resident set; of it the anonymous pages, which are
 * allocated memory rather than a library's code mapped from its file; the Java heap's growth
 * apart, so the rest is native: TensorFlow's or ONNX Runtime's), the threads it starts, and the CPU a paced call
 * costs on the calling thread and on every other thread of the process (an engine's own thread
 * pools; the JVM's compiler and collector threads too, which the {@code linear} row shows alone).
 *
 * <pre>
 * java -cp ... org.itsrt.benchmarks.EngineFootprint [--model DIR] [--calls N] [--pause-us US]
 *     [--out FILE.md] ENGINE...      (ENGINE as FlowPrediction's engine parameter, e.g. onnx:2/spin)
 * </pre>
 */
@Command(
        name = "its-bench --footprint",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Memory, threads and CPU per paced call of each engine, each engine in a JVM of its own.")
public final class EngineFootprint implements Callable<Integer> {
    private static final String ONE = "--one";

    /** With neither engine given: every engine, and the thread and spin settings worth comparing. */
    private static final List<String> ALL_ENGINES =
            List.of("kernel", "kernel-bf16", "tensorflow:1/1", "onnx:1", "onnx:2", "onnx:2/spin", "linear");

    @Spec
    CommandSpec spec;

    @Option(
            names = "--model",
            paramLabel = "DIR",
            defaultValue = "models/lstm-flow",
            description = "the model bundle (default: ${DEFAULT-VALUE})")
    String model;

    @Option(
            names = "--calls",
            paramLabel = "N",
            defaultValue = "600",
            description = "paced calls measured per engine, after 2,000 unmeasured (default: ${DEFAULT-VALUE})")
    int calls;

    @Option(
            names = "--pause-us",
            paramLabel = "US",
            defaultValue = "16667",
            description =
                    "the pause before each call: 60 calls/s by default, the job's pace (default: ${DEFAULT-VALUE})")
    long pauseUs;

    @Option(names = "--out", paramLabel = "FILE.md", description = "also write the table to this file")
    Path out;

    /** Measures the first engine in this JVM and prints its figures as one line: how each engine's own JVM runs. */
    @Option(names = ONE, hidden = true)
    boolean one;

    @Parameters(
            paramLabel = "ENGINE",
            arity = "0..*",
            description = "engines as FlowPrediction's engine parameter, e.g. kernel, tensorflow:1/1, onnx:2/spin "
                    + "(default: all of them)")
    List<String> engines = new ArrayList<>();

    EngineFootprint() {}

    public static void main(String[] args) {
        System.exit(
                OneLineErrors.install(new CommandLine(new EngineFootprint())).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        check();
        List<String> measured = engines.isEmpty() ? ALL_ENGINES : engines;
        if (one) {
            System.out.println("footprint "
                    + Footprint.measure(model, measured.get(0), calls, pauseUs).csv());
            return 0;
        }
        List<Footprint> rows = new ArrayList<>();
        for (String engine : measured) {
            rows.add(inOwnJvm(model, engine, calls, pauseUs));
            System.err.printf("%s done (%d of %d)%n", engine, rows.size(), measured.size());
        }
        String table = markdown(rows, model, calls, pauseUs);
        System.out.print(table);
        if (out != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, table);
        }
        return 0;
    }

    /** Every option and engine checked before the first JVM starts: a bad one is refused in one line. */
    private void check() {
        if (calls < 1) {
            throw new ParameterException(spec.commandLine(), "--calls must be at least 1, got " + calls);
        }
        if (pauseUs < 0) {
            throw new ParameterException(spec.commandLine(), "--pause-us must be 0 or more, got " + pauseUs);
        }
        for (String engine : engines) {
            try {
                FlowPrediction.predictorOptions(engine, true);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "ENGINE: " + e.getMessage());
            }
        }
        if (!Files.isDirectory(Path.of(model))) {
            throw new ParameterException(spec.commandLine(), "--model " + model + ": no such model bundle");
        }
    }

    private static Footprint inOwnJvm(String model, String engine, int calls, long pauseUs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules",
                "jdk.incubator.vector",
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                EngineFootprint.class.getName(),
                ONE,
                "--model",
                model,
                "--calls",
                Integer.toString(calls),
                "--pause-us",
                Long.toString(pauseUs),
                engine));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("measuring " + engine + " failed:\n" + output);
        }
        return output.lines()
                .filter(line -> line.startsWith("footprint "))
                .map(line -> Footprint.parse(line.substring("footprint ".length())))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no figures from " + engine + ":\n" + output));
    }

    static String markdown(List<Footprint> rows, String model, int calls, long pauseUs) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(
                Locale.ROOT,
                "# Engine footprint: %s, %d calls of batch 1 every %d us after 2,000 back to back, a JVM per engine%n%n",
                model,
                calls,
                pauseUs));
        text.append(
                "| engine | threads started | resident growth at open (MB) | after the calls (MB) | of it anonymous (MB) "
                        + "| Java heap growth (MB) | CPU per call, calling thread (us) "
                        + "| CPU per call, other threads (us) | wall per call (us) |\n");
        text.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Footprint row : rows) {
            text.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                    row.engine(),
                    row.threadsAdded(),
                    row.openMb(),
                    row.afterCallsMb(),
                    row.anonymousMb(),
                    row.heapMb(),
                    row.callerUsPerCall(),
                    row.otherThreadsUsPerCall(),
                    row.wallUsPerCall()));
        }
        return text.toString();
    }
}
