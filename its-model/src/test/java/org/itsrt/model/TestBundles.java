package org.itsrt.model;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The bundles the predictor tests run on, and their reference.json. */
final class TestBundles {
    static final String TINY_FLOW = "tiny-flow";
    static final String TINY_FEATURES = "tiny-features";
    /** The tiny shape with GRU cells: a network the kernel engines do not run. */
    static final String TINY_GRU = "tiny-gru";
    /** The shipped model, tested when it is present at the repository root. */
    static final String SHIPPED = "models/lstm-flow";

    private TestBundles() {}

    /** The LSTM bundles: every engine runs them. */
    static Stream<String> all() {
        return Stream.of(TINY_FLOW, TINY_FEATURES, SHIPPED);
    }

    /** Every bundle, the GRU among them: what the engines that read the network from the graph run. */
    static Stream<String> anyNetwork() {
        return Stream.concat(all(), Stream.of(TINY_GRU));
    }

    /** A test bundle's folder; skips the test when the shipped model is not there yet. */
    static Path dir(String name) {
        if (!name.equals(SHIPPED)) {
            return resource("/models/" + name);
        }
        String root = System.getProperty("itsrt.repo.root");
        assumeTrue(root != null, "system property itsrt.repo.root is not set; the shipped model's tests are skipped");
        Path dir = Path.of(root).resolve(SHIPPED);
        assumeTrue(
                Files.isDirectory(dir),
                SHIPPED + " is not at " + dir + " yet (the trainer writes it); " + "its reference tests are skipped");
        return dir;
    }

    static Path resource(String name) {
        URL url = TestBundles.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("test resource " + name + " is missing");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** reference.json: inputs and Keras' and Python's outputs. */
    record Reference(List<ReadingWindow> windows, double[] lstmScaled, double[] lstmFlow, double[] linearScaled) {

        static Reference of(Path bundleDir) {
            JsonNode root = json(bundleDir.resolve("reference.json"));
            int count = root.get("count").intValue();
            List<ReadingWindow> windows = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                windows.add(new ReadingWindow(
                        doubles(root.get("flows").get(i)),
                        doubles(root.get("speeds").get(i)),
                        Instant.parse(root.get("newest_ts_utc").get(i).asText())));
            }
            return new Reference(
                    windows,
                    doubles(root.get("lstm_scaled")),
                    doubles(root.get("lstm_flow")),
                    doubles(root.get("linear_scaled")));
        }

        int count() {
            return windows.size();
        }
    }

    /** A JSON array of numbers; null reads as NaN (an unknown speed). */
    static double[] doubles(JsonNode array) {
        double[] values = new double[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).isNull() ? Double.NaN : array.get(i).doubleValue();
        }
        return values;
    }
}
