package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The district workload end to end, small: a generated district of 150 detectors (made once into
 * the repository's cache, {@code results/districts/}, and reused), its readings and route requests
 * through the broker, the job's district pipeline and the probe, both streams measured apart.
 */
class DemoDistrictTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void aGeneratedDistrictsReadingsArePredictedAndEveryRequestIsAnsweredWithARoute(@TempDir Path dir)
            throws Exception {
        Path run = dir.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            // 150 detectors at 1 reading/s each: 3,000 measured readings take 20 s, and at 25
            // requests/s 500 requests are measured beside them; 5 s of warm-up first.
            exit = new CommandLine(new DemoCommand())
                    .execute(
                            "--workload",
                            "district",
                            "--detectors",
                            "150",
                            "--rate",
                            "1",
                            "--requests",
                            "25",
                            "--records",
                            "3000",
                            "--warmup",
                            "5s",
                            "--model",
                            ROOT.resolve("models/lstm-flow").toString(),
                            // Deadlines off: on a loaded machine a request past the 50 ms SLO is
                            // answered "expired", which says nothing about routing (the
                            // deadline tests of its-job cover expiry).
                            "--job-arg",
                            "deadline-ms=0",
                            "--out",
                            run.toString(),
                            "--broker-jvm-arg=-XX:+UseSerialGC");
        } finally {
            System.setOut(oldOut);
        }
        String console = out.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(console).isZero();
        assertThat(console)
                .contains("3,000 of 3,000 records measured end to end")
                .contains("and 500 of 500 route requests answered")
                .contains("readings -> predictions:")
                .contains("route requests -> answers:")
                .contains("readings: lost 0, duplicated 0, reordered 0, never arrived 0; requests: lost 0, "
                        + "duplicated 0, reordered 0, never arrived 0; both: dead-lettered 0");
        ObjectMapper json = new ObjectMapper();
        JsonNode readings =
                json.readTree(run.resolve("probe/predictions/summary.json").toFile());
        assertThat(readings.at("/run/topic").asText()).isEqualTo("its.predictions");
        assertThat(readings.at("/records/measured").asLong()).isEqualTo(3_000);
        assertThat(readings.at("/sequence/total/lost").asLong()).isZero();
        JsonNode answers =
                json.readTree(run.resolve("probe/routes/summary.json").toFile());
        assertThat(answers.at("/run/topic").asText()).isEqualTo("its.routes");
        assertThat(answers.at("/records/measured").asLong()).isEqualTo(500);
        assertThat(answers.at("/sequence/total/lost").asLong()).isZero();
        // Every measured answer is a route: the district's graph is connected.
        Map<String, Long> measuredByOutcome = new HashMap<>();
        List<String> outcomes = Files.readAllLines(run.resolve("probe/outcomes.csv"));
        List<String> header = List.of(outcomes.get(0).split(","));
        for (String row : outcomes.subList(1, outcomes.size())) {
            String[] cells = row.split(",");
            measuredByOutcome.put(cells[0], Long.parseLong(cells[header.indexOf("measured")]));
        }
        assertThat(measuredByOutcome).containsEntry("routed", 500L);
        assertThat(measuredByOutcome.getOrDefault("unreachable", 0L)).isZero();
        assertThat(Files.readString(run.resolve("summary.md")))
                .contains("route requests: 500 at 25.0 requests/s in all (after 125 warm-up requests)")
                .contains("load: 3,000 records, 150 detectors at 1.0 records/s each");
        JsonNode requestsSent =
                json.readTree(run.resolve("producer-requests.json").toFile());
        assertThat(requestsSent.toString()).contains("625");
    }
}
