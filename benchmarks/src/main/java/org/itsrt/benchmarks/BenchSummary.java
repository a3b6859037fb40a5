package org.itsrt.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns JMH's JSON result file (and, when present, the Python Keras timing) into a Markdown
 * summary a person can read: one row per benchmark and parameter set, latencies in microseconds.
 *
 * <pre>java ... org.itsrt.benchmarks.BenchSummary results/bench/jmh.json [results/bench/keras.json] results/bench/summary.md</pre>
 */
public final class BenchSummary {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One JMH result row, reduced to what the summary shows. */
    record Row(
            String benchmark,
            String params,
            String mode,
            double score,
            double error,
            String unit,
            Double p50,
            Double p99,
            Double max) {}

    private BenchSummary() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: BenchSummary JMH_JSON [KERAS_JSON] OUT_MD");
            System.exit(2);
        }
        Path jmh = Path.of(args[0]);
        Optional<Path> keras =
                args.length == 3 ? Optional.of(Path.of(args[1])).filter(Files::isRegularFile) : Optional.empty();
        Path out = Path.of(args[args.length - 1]);
        String markdown = render(
                        readRows(jmh),
                        keras.isPresent() ? JSON.readTree(keras.get().toFile()) : null,
                        jmh)
                .replaceFirst("\n\n", "\n\n" + machine(jmh) + "\n\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, markdown);
        System.out.print(markdown);
    }

    static List<Row> readRows(Path jmhJson) throws IOException {
        JsonNode root = JSON.readTree(jmhJson.toFile());
        if (root == null || !root.isArray()) {
            throw new IOException(jmhJson + ": not a JMH JSON result (expected an array of results)");
        }
        List<Row> rows = new ArrayList<>();
        for (JsonNode result : root) {
            String benchmark = result.path("benchmark").asText();
            benchmark = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            Map<String, String> params = new TreeMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = result.path("params").fields();
            fields.forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
            // The bundle path and the default Vector API setting say nothing a reader compares.
            params.remove("modelDir");
            params.remove("vectorApi", "true");
            JsonNode metric = result.path("primaryMetric");
            JsonNode percentiles = metric.path("scorePercentiles");
            String unit = metric.path("scoreUnit").asText();
            boolean sampled = "sample".equals(result.path("mode").asText());
            rows.add(new Row(
                    benchmark,
                    params.toString().replaceAll("[{}]", ""),
                    result.path("mode").asText(),
                    metric.path("score").asDouble(),
                    metric.path("scoreError").asDouble(Double.NaN),
                    unit,
                    sampled ? toMicros(percentiles.path("50.0"), unit) : null,
                    sampled ? toMicros(percentiles.path("99.0"), unit) : null,
                    sampled ? toMicros(percentiles.path("100.0"), unit) : null));
        }
        return rows;
    }

    static String render(List<Row> rows, JsonNode keras, Path source) {
        StringBuilder md = new StringBuilder("# Benchmark summary\n\n");
        md.append("From `")
                .append(source)
                .append("` (JMH). Sample-time rows: latency of one call in µs; ")
                .append("throughput rows: operations per second. ± is JMH's 99.9% error.\n\n");
        md.append("| benchmark | parameters | mode | p50 µs | p99 µs | max µs | score | unit |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---|\n");
        List<Row> ordered = new ArrayList<>(rows);
        ordered.sort(Comparator.comparing((Row r) -> !"sample".equals(r.mode())));
        for (Row row : ordered) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    row.benchmark(),
                    row.params(),
                    row.mode(),
                    fmt(row.p50()),
                    fmt(row.p99()),
                    fmt(row.max()),
                    fmt(row.score()) + (Double.isNaN(row.error()) ? "" : " ± " + fmt(row.error())),
                    row.unit()));
        }
        if (keras != null) {
            md.append("\n## Python (Keras) at batch 1, same model\n\n");
            md.append("| call | p50 µs | p99 µs | max µs | calls |\n|---|---:|---:|---:|---:|\n");
            for (String call : List.of("keras_call_batch1", "signature_batch1")) {
                JsonNode r = keras.path(call);
                if (!r.isMissingNode()) {
                    md.append(String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %d |%n",
                            call,
                            fmt(r.path("p50_us").asDouble()),
                            fmt(r.path("p99_us").asDouble()),
                            fmt(r.path("max_us").asDouble()),
                            r.path("count").asInt()));
                }
            }
            double kerasP50 = keras.path("keras_call_batch1").path("p50_us").asDouble(Double.NaN);
            md.append(String.format(
                    Locale.ROOT,
                    "%nTensorFlow %s, Keras %s, threads %s.%n%n",
                    keras.path("tensorflow").asText(),
                    keras.path("keras").asText(),
                    keras.path("threads").asText()));
            for (Row row : rows) {
                if (row.p50() != null
                        && row.benchmark().startsWith("FlowPrediction")
                        && row.params().contains("batch=1,")
                        && !row.params().contains("engine=linear")) {
                    md.append(String.format(
                            Locale.ROOT,
                            "- Keras `model(x)` p50 / %s %s p50 = %s / %s = **%.1f×**%n",
                            row.benchmark(),
                            row.params(),
                            fmt(kerasP50),
                            fmt(row.p50()),
                            kerasP50 / row.p50()));
                }
            }
        }
        return md.toString();
    }

    /** The numbers mean little without the machine: CPU model, cores and the JVM that ran them. */
    static String machine(Path jmhJson) throws IOException {
        String cpu = "unknown CPU";
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            cpu = Files.readAllLines(cpuinfo).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(cpu);
        }
        JsonNode first = JSON.readTree(jmhJson.toFile()).path(0);
        return String.format(
                Locale.ROOT,
                "Machine: %s, %d cores; JVM %s %s.",
                cpu,
                Runtime.getRuntime().availableProcessors(),
                first.path("vmName").asText("?"),
                first.path("jdkVersion").asText("?"));
    }

    private static Double toMicros(JsonNode value, String unit) {
        if (value.isMissingNode()) {
            return null;
        }
        double v = value.asDouble();
        return switch (unit) {
            case "ns/op" -> v / 1000;
            case "ms/op" -> v * 1000;
            case "s/op" -> v * 1_000_000;
            default -> v;
        };
    }

    private static String fmt(Double value) {
        if (value == null || value.isNaN()) {
            return "";
        }
        double v = value;
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
