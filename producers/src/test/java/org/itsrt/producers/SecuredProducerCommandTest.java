package org.itsrt.producers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

/**
 * The producer CLI on a secured broker: with its own user's file it sends; refused, it ends at
 * once with one line that names the user and what was refused, not a stack trace or a hang.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecuredProducerCommandTest {

    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

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

    private record Result(int exit, String out, String err, Duration took) {}

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int exit;
        long start = System.nanoTime();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new ProducerCommand()).execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Result(
                exit,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - start));
    }

    private static Result produce(Path kafkaConfig) {
        return kafkaConfig == null
                ? run("--bootstrap-servers", kafka.bootstrapServers(), "--data", SAMPLE.toString(), "--records", "12")
                : run(
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--data",
                        SAMPLE.toString(),
                        "--records",
                        "12",
                        "--rate",
                        "50",
                        "--kafka-config",
                        kafkaConfig.toString());
    }

    private static Path fileOf(KafkaSecurity.User user) {
        return kafka.security().orElseThrow().clientFile(user);
    }

    @Test
    void theProducersOwnFileSends() {
        Result result = produce(fileOf(KafkaSecurity.User.PRODUCER));

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).contains("12");
    }

    @Test
    void anotherUsersFileIsRefusedNamingTheUserAndTheTopic() {
        Result result = produce(fileOf(KafkaSecurity.User.PROBE));

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip())
                .startsWith("its-producer: user probe (from " + fileOf(KafkaSecurity.User.PROBE))
                .contains("may not use topic " + Topics.READINGS)
                .doesNotContain("\tat ")
                .hasLineCount(1);
        assertThat(result.took()).isLessThan(REFUSED_WITHIN);
    }

    @Test
    void aWrongPasswordIsRefusedAtLogin(@TempDir Path dir) throws Exception {
        Path wrong = dir.resolve("wrong.properties");
        Files.writeString(
                wrong,
                Files.readString(fileOf(KafkaSecurity.User.PRODUCER))
                        .replaceAll("password=\"[^\"]*\"", "password=\"not-the-password\""));

        Result result = produce(wrong);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip())
                .startsWith(
                        "its-producer: Kafka at " + kafka.bootstrapServers() + " refused the login of user producer")
                .contains("invalid credentials")
                .doesNotContain("\tat ")
                .hasLineCount(1);
        assertThat(result.took()).isLessThan(REFUSED_WITHIN);
    }

    @Test
    void noCredentialsEndsWithAHintInsteadOfAHang() {
        Result result = produce(null);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip())
                .startsWith("its-producer: cannot reach Kafka at " + kafka.bootstrapServers())
                .contains("--kafka-config")
                .hasLineCount(1);
        assertThat(result.took()).isLessThan(REFUSED_WITHIN);
    }

    @Test
    void aMissingFileIsABadUsageNamingIt(@TempDir Path dir) {
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--kafka-config",
                dir.resolve("absent.properties").toString());

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("--kafka-config " + dir.resolve("absent.properties") + ": no such file");
    }
}
