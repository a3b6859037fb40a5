package org.itsrt.job.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.itsrt.cli.OneLineErrors;
import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.PredictorOptions;
import org.itsrt.model.ReadingWindow;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StationHistory;
import org.itsrt.readings.StudyStation;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.RouteAdvisor;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.StudyNetwork;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code its replay}: the job's per-reading work (window, predict, route) over a canonical table,
 * in one process and in event-time order, without Kafka or Flink. It shows what the job computes
 * and what each stage costs on this machine; the streaming pipeline's end-to-end latency is the
 * latency probe's business.
 */
@Command(
        name = "its replay",
        sortOptions = false,
        mixinStandardHelpOptions = false,
        description = "Replays a canonical readings table through the flow predictor and the A* router, reading by "
                + "reading in time order, and writes the advice (advice.csv) and a report (summary.md): prediction "
                + "error against what the stations measured next, the time each stage took, and the routes chosen.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:replayed", "1:bad input (table, model or options)", "2:bad usage"})
public final class ReplayCommand implements Callable<Integer> {

    @Mixin
    DataOption dataOption;

    @Mixin
    ModelOption modelOption;

    @Mixin
    OutputOption output;

    @Mixin
    VerboseOption verbose;

    @Mixin
    HelpOption help;

    /** Readings whose timings are left out of the stage histograms while the JIT compiles the hot path. */
    static final int WARM_UP_READINGS = 500;

    @Option(
            names = "--engine",
            paramLabel = "NAME",
            description =
                    "kernel, kernel-bf16, kernel-int8, tensorflow, onnx or linear (default: the job's, kernel-bf16)")
    String engine;

    @Option(
            names = "--origin",
            defaultValue = "764598",
            paramLabel = "VDS",
            description = "origin detector of the advised route (default: ${DEFAULT-VALUE}, El Segundo)")
    long from;

    @Option(
            names = "--to",
            defaultValue = "774445",
            paramLabel = "VDS",
            description = "destination detector (default: ${DEFAULT-VALUE}, Long Beach)")
    long to;

    @Option(
            names = "--limit",
            defaultValue = "0",
            paramLabel = "N",
            description = "replay only the first N readings (0 = all)")
    int limit;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new ReplayCommand()));
    }

    @Override
    public Integer call() throws IOException {
        // The repository's own sample and model unless told otherwise; a missing one fails naming it.
        Path data = dataOption.path();
        Path model = modelOption.path();
        Path out = output.path() != null ? output.path() : Path.of("results", "replay");
        PredictorOptions options =
                PredictorOptions.reference().withEngine(engine != null ? Engine.fromName(engine) : Engine.DEFAULT);
        DetectorGraph graph = StudyNetwork.build();
        List<Reading> readings = inEventTimeOrder(CanonicalTable.read(data));
        requireStationsInGraph(readings, graph);
        if (limit > 0 && readings.size() > limit) {
            readings = readings.subList(0, limit);
        }
        Files.createDirectories(out);
        try (FlowPredictor predictor = FlowPredictors.open(model, options);
                AdviceCsv adviceCsv = new AdviceCsv(out.resolve("advice.csv"))) {
            ReplayReport report = replay(readings, predictor, new RouteAdvisor(graph, from, to), adviceCsv);
            Files.writeString(
                    out.resolve("summary.md"),
                    report.markdown(data, model, predictor.engine().engineName()));
            System.out.println();
            System.out.print(report.consoleSummary());
            System.out.println("wrote " + out.resolve("advice.csv") + " and " + out.resolve("summary.md"));
        }
        return 0;
    }

    private ReplayReport replay(
            List<Reading> readings, FlowPredictor predictor, RouteAdvisor advisor, AdviceCsv adviceCsv)
            throws IOException {
        int window = predictor.bundle().model().window();
        Map<Long, StationHistory> histories = new HashMap<>();
        Map<Long, Pending> pending = new HashMap<>();
        ReplayReport report = new ReplayReport(readings.size(), advisor);
        ReplayProgress progress = new ReplayProgress("replayed", readings.size());
        int seen = 0;
        for (Reading reading : readings) {
            seen++;
            Pending due = pending.remove(reading.stationId());
            if (due != null && due.targetTsUtc().equals(reading.tsUtc())) {
                report.errors().add(reading.stationId(), reading.flow(), due.predictedFlow(), due.lastFlow());
            }
            StationHistory history = histories.computeIfAbsent(reading.stationId(), id -> new StationHistory(window));
            history.add(reading);
            if (history.isFull()) {
                long started = System.nanoTime();
                float predicted =
                        predictor.predict(new ReadingWindow(history.flows(), history.speeds(), history.newest()));
                long predictedAt = System.nanoTime();
                DetectorConditions conditions = reading.hasSpeed()
                        ? DetectorConditions.of(reading.speed(), predicted)
                        : DetectorConditions.flowOnly(predicted);
                // In event-time order each reading is its station's newest: no sequence number needed.
                advisor.update(reading.stationId(), reading.tsUtc(), 0, conditions);
                Advice advice =
                        new Advice(reading.stationId(), reading.tsUtc(), reading.flow(), predicted, advisor.route());
                long routedAt = System.nanoTime();
                if (seen > WARM_UP_READINGS) {
                    report.stages().record(ReplayReport.PREDICT, predictedAt - started);
                    report.stages().record(ReplayReport.ROUTE, routedAt - predictedAt);
                    report.stages().record(ReplayReport.PREDICT_AND_ROUTE, routedAt - started);
                }
                report.count(advice);
                adviceCsv.write(advice);
                pending.put(
                        reading.stationId(),
                        new Pending(reading.tsUtc().plus(Reading.INTERVAL), predicted, reading.flow()));
            }
            progress.step();
        }
        progress.finish();
        histories.values().forEach(h -> report.addRestarts(h.restarts()));
        return report;
    }

    /** A prediction waiting for the reading it predicted. */
    private record Pending(Instant targetTsUtc, double predictedFlow, double lastFlow) {}

    private static List<Reading> inEventTimeOrder(List<Reading> readings) {
        return readings.stream()
                .sorted(Comparator.comparing(Reading::tsUtc).thenComparingLong(Reading::stationId))
                .toList();
    }

    private void requireStationsInGraph(List<Reading> readings, DetectorGraph graph) {
        readings.stream()
                .mapToLong(Reading::stationId)
                .distinct()
                .filter(id -> !graph.contains(id))
                .findFirst()
                .ifPresent(id -> {
                    throw new IllegalArgumentException(
                            dataOption.path() + ": station " + id + " is not one of the six study "
                                    + "stations the router knows ("
                                    + java.util.Arrays.stream(StudyStation.values())
                                            .map(s -> String.valueOf(s.vdsId()))
                                            .toList()
                                    + ")");
                });
    }
}
