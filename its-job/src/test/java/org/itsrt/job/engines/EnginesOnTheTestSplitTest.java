package org.itsrt.job.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.PredictorOptions;
import org.itsrt.model.ReadingWindow;
import org.itsrt.readings.Reading;
import org.itsrt.readings.pems.PemsImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped model on its own test split, every window of it, per engine: the split the trainer
 * scored in metrics.json ({@code engines}), rebuilt here from the study's PeMS files as the
 * trainer builds it (13 readings exactly 5 minutes apart; windows whose target starts at or after
 * the split's cutoff). TensorFlow must reproduce the trainer's test MSE, which proves the windows
 * are the same; the kernel and ONNX Runtime must equal TensorFlow within the tolerance the
 * reference windows hold them to. Skipped without the study's files or the shipped model.
 */
class EnginesOnTheTestSplitTest {
    /** On the scaled axis, as PredictorReferenceTest holds the exact engines to TensorFlow. */
    private static final double TOLERANCE = 1e-5;

    private static final int WINDOW = 12;

    private static Path bundle;
    private static JsonNode engines;
    private static List<ReadingWindow> windows;
    private static double[] targets;

    @BeforeAll
    static void rebuildTheTestSplit() throws IOException {
        String shared = System.getProperty("itsrt.shared.data");
        String root = System.getProperty("itsrt.repo.root");
        Path data = shared == null ? null : Path.of(shared, "pems-2018-03-d07");
        assumeTrue(
                data != null && Files.isDirectory(data),
                "the study's PeMS files are not at " + data + " (system property itsrt.shared.data); skipped");
        assumeTrue(root != null, "system property itsrt.repo.root is not set; skipped");
        bundle = Path.of(root, "models/lstm-flow");
        JsonNode metrics =
                new ObjectMapper().readTree(bundle.resolve("metrics.json").toFile());
        engines = metrics.get("engines");
        Instant cutoff = cutoffOf(metrics, engines.get("split").asText());

        List<Reading> readings = new PemsImporter(PemsImporter.Options.strict(), line -> {})
                .importFrom(List.of(data))
                .readings();
        Map<Long, List<Reading>> byStation = new TreeMap<>();
        for (Reading reading : readings) {
            byStation
                    .computeIfAbsent(reading.stationId(), id -> new ArrayList<>())
                    .add(reading);
        }
        windows = new ArrayList<>();
        List<Double> wanted = new ArrayList<>();
        for (List<Reading> station : byStation.values()) {
            station.sort(Comparator.comparing(Reading::tsUtc));
            for (int start = 0; start + WINDOW < station.size(); start++) {
                Reading target = station.get(start + WINDOW);
                if (target.tsUtc().isBefore(cutoff) || !consecutive(station, start)) {
                    continue;
                }
                double[] flows = new double[WINDOW];
                double[] speeds = new double[WINDOW];
                for (int i = 0; i < WINDOW; i++) {
                    Reading reading = station.get(start + i);
                    flows[i] = reading.flow();
                    speeds[i] = reading.speed() == null ? Double.NaN : reading.speed();
                }
                windows.add(new ReadingWindow(
                        flows, speeds, station.get(start + WINDOW - 1).tsUtc()));
                wanted.add(target.flow());
            }
        }
        targets = wanted.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Test
    void everyExactEngineEqualsTensorFlowOnEveryTestWindow() {
        assertThat(windows)
                .as("test windows of split %s", engines.get("split").asText())
                .hasSize(engines.get("test_windows").intValue());
        float[] reference = predictAll(Engine.TENSORFLOW);
        double trainerMse = engines.get("rows").get(0).get("scores").get("mse").doubleValue();
        assertThat(engines.get("rows").get(0).get("engine").asText()).isEqualTo("tensorflow");
        assertThat(mse(reference))
                .as("TensorFlow Java's test MSE against the trainer's")
                .isCloseTo(trainerMse, within(1e-5 * trainerMse));

        double flowSpan = flowSpan();
        for (Engine engine : List.of(Engine.KERNEL, Engine.ONNX)) {
            float[] predicted = predictAll(engine);
            double worst = 0;
            for (int i = 0; i < predicted.length; i++) {
                worst = Math.max(worst, Math.abs(predicted[i] - reference[i]) / flowSpan);
            }
            System.out.printf(
                    "%s on %d test windows: test MSE %.4f (tensorflow %.4f), max |%s - tensorflow| scaled %.3g%n",
                    engine, predicted.length, mse(predicted), mse(reference), engine, worst);
            assertThat(worst)
                    .as("max |%s - tensorflow| on the scaled axis", engine)
                    .isLessThanOrEqualTo(TOLERANCE);
        }
    }

    private static float[] predictAll(Engine engine) {
        float[] out = new float[windows.size()];
        try (FlowPredictor predictor =
                FlowPredictors.open(bundle, PredictorOptions.reference().withEngine(engine))) {
            int batch = 256;
            float[] part = new float[batch];
            for (int first = 0; first < windows.size(); first += batch) {
                List<ReadingWindow> some = windows.subList(first, Math.min(first + batch, windows.size()));
                predictor.predict(some, part);
                System.arraycopy(part, 0, out, first, some.size());
            }
        }
        return out;
    }

    private static double mse(float[] predicted) {
        double sum = 0;
        for (int i = 0; i < predicted.length; i++) {
            double error = predicted[i] - targets[i];
            sum += error * error;
        }
        return sum / predicted.length;
    }

    private static double flowSpan() throws IllegalStateException {
        try (FlowPredictor linear =
                FlowPredictors.open(bundle, PredictorOptions.reference().withEngine(Engine.LINEAR))) {
            return linear.bundle().scaler().flow().max()
                    - linear.bundle().scaler().flow().min();
        }
    }

    private static boolean consecutive(List<Reading> station, int start) {
        for (int i = start; i < start + WINDOW; i++) {
            if (!station.get(i + 1).tsUtc().equals(station.get(i).tsUtc().plus(Reading.INTERVAL))) {
                return false;
            }
        }
        return true;
    }

    /** metrics.json writes a split's cutoff as pandas prints a UTC timestamp: {@code 2018-03-26 02:35:00+00:00}. */
    private static Instant cutoffOf(JsonNode metrics, String split) {
        for (JsonNode result : metrics.get("results")) {
            JsonNode described = result.get("split");
            if (described.get("name").asText().equals(split)) {
                String text = described.get("cutoff").asText();
                return LocalDateTime.parse(text.substring(0, 19), DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"))
                        .toInstant(ZoneOffset.UTC);
            }
        }
        throw new IllegalStateException("metrics.json has no result of split " + split);
    }
}
