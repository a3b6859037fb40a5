package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.itsrt.records.Topics;
import org.itsrt.stack.kafka.KafkaSecurity;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The probe on a secured broker: its own user reads, another user is refused in one line. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecuredProbeCommandTest {

    /** Far above a refusal's few seconds, far below a hang. */
    private static final Duration REFUSED_WITHIN = Duration.ofSeconds(60);

    @TempDir
    static Path parent;

    private static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(
                LocalKafkaOptions.defaults().withParentDir(parent).withSecurity(true));
        kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private record Result(int exit, String err, Duration took) {}

    private static Result probe(Path out, KafkaSecurity.User user) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        long start = System.nanoTime();
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new ProbeCommand())
                    .execute(
                            "--bootstrap-servers",
                            kafka.bootstrapServers(),
                            "--kafka-config",
                            kafka.security().orElseThrow().clientFile(user).toString(),
                            "--duration",
                            "2s",
                            "--out",
                            out.toString());
        } finally {
            System.setErr(oldErr);
        }
        return new Result(exit, err.toString(StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - start));
    }

    @Test
    void theProbesOwnFileReadsTheAdviceTopic(@TempDir Path dir) {
        Result result = probe(dir.resolve("run"), KafkaSecurity.User.PROBE);

        assertThat(result.err()).doesNotContain("may not").doesNotContain("refused");
        assertThat(dir.resolve("run").resolve("summary.json")).exists();
    }

    @Test
    void anotherUsersFileIsRefusedInOneLine(@TempDir Path dir) {
        Result result = probe(dir.resolve("run"), KafkaSecurity.User.PRODUCER);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip())
                .startsWith("its-probe: user producer (from ")
                .contains("may not use topic " + Topics.ADVICE)
                .doesNotContain("\tat ")
                .hasLineCount(1);
        assertThat(result.took()).isLessThan(REFUSED_WITHIN);
    }
}
