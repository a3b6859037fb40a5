package org.itsrt.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchSummaryTest {

    private static final String JMH =
            """
            [ {"benchmark": "org.itsrt.benchmarks.FlowPrediction.throughput", "mode": "thrpt",
               "params": {"batch": "1", "engine": "kernel", "modelDir": "/x/models/lstm-flow", "vectorApi": "true"},
               "primaryMetric": {"score": 2800.5, "scoreError": 40.0, "scoreUnit": "ops/s"}},
              {"benchmark": "org.itsrt.benchmarks.FlowPrediction.latency", "mode": "sample",
               "params": {"batch": "1", "engine": "kernel", "modelDir": "/x/models/lstm-flow", "vectorApi": "false"},
               "primaryMetric": {"score": 0.25, "scoreError": 0.01, "scoreUnit": "ms/op",
                                 "scorePercentiles": {"50.0": 0.2, "99.0": 0.5, "100.0": 4.0}}} ]
            """;

    @Test
    void latencyRowsComeFirstInMicrosecondsWithoutThePathParameter(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("jmh.json");
        Files.writeString(json, JMH);
        List<BenchSummary.Row> rows = BenchSummary.readRows(json);

        String md = BenchSummary.render(rows, null, json);

        List<String> tableRows =
                md.lines().filter(l -> l.startsWith("| FlowPrediction")).toList();
        assertThat(tableRows).hasSize(2);
        assertThat(tableRows.get(0))
                .startsWith("| FlowPrediction.latency | batch=1, engine=kernel, vectorApi=false |")
                .contains("| 200.0 | 500.0 | 4,000 |");
        assertThat(tableRows.get(1)).startsWith("| FlowPrediction.throughput | batch=1, engine=kernel |");
        assertThat(md).doesNotContain("modelDir");
    }

    @Test
    void kerasRatioIsKerasP50OverEachBatchOneLatency(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("jmh.json");
        Files.writeString(json, JMH);
        var keras = new ObjectMapper()
                .readTree(
                        """
                {"keras_call_batch1": {"p50_us": 3000, "p99_us": 4000, "max_us": 5000, "count": 10},
                 "tensorflow": "2.18.1", "keras": "3.8.0", "threads": "default"}""");

        String md = BenchSummary.render(BenchSummary.readRows(json), keras, json);

        assertThat(md).contains("= 3,000 / 200.0 = **15.0×**");
    }
}
