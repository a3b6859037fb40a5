package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.cli.KafkaClientConfig;
import org.itsrt.cli.ProjectPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad usage is refused before anything starts, naming the option; nothing is left behind. */
class FuzzCommandTest {

    private record Result(int exit, String err) {}

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FuzzCommand())
                .setErr(new PrintWriter(err, true))
                .setOut(new PrintWriter(new StringWriter(), true))
                .execute(args);
        return new Result(exit, err.toString());
    }

    @Test
    void tooFewRecordsForEveryKind(@TempDir Path dir) {
        Result r = run("--records", "3", "--out", dir.resolve("out").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--records must be at least " + FuzzKind.values().length);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void theWarmupIsATimeOrAReadingCountNotBoth(@TempDir Path dir) {
        Result both = run(
                "--warmup",
                "2s",
                "--warmup-records",
                "6",
                "--out",
                dir.resolve("out").toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--warmup and --warmup-records are mutually exclusive");
        assertThat(dir.resolve("out")).doesNotExist();

        FuzzCommand byDefault = new FuzzCommand();
        new CommandLine(byDefault).parseArgs();
        assertThat(byDefault.warmupReadings(6)).isEqualTo(120);
        FuzzCommand none = new FuzzCommand();
        new CommandLine(none).parseArgs("--warmup", "0");
        assertThat(none.warmupReadings(6)).isZero();
        FuzzCommand counted = new FuzzCommand();
        new CommandLine(counted).parseArgs("--warmup-records", "7");
        assertThat(counted.warmupReadings(6)).isEqualTo(7);
    }

    @Test
    void aRunningDeploymentNeedsBothItsAddresses(@TempDir Path dir) {
        Result r = run("--bootstrap-servers", "localhost:9092", "--out", dir.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--bootstrap-servers and --flink-rest go together");
    }

    @Test
    void aClusterFolderGoesAlone(@TempDir Path dir) {
        Result r = run(
                "--cluster",
                dir.toString(),
                "--bootstrap-servers",
                "localhost:9092",
                "--flink-rest",
                "http://localhost:8081");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--cluster brings its own brokers");
    }

    @Test
    void anUnknownFlinkKindIsNamed() {
        Result r = run("--flink", "yarn");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--flink must be standalone, child or in-process, got yarn");
    }

    @Test
    void aMissingKafkaConfigFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("client.properties");
        Result r = run("--kafka-config", missing.toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains(missing.toString());
    }

    @Test
    void theKafkaConfigReachesTheJobsClientsByItsPathNeverByItsValues(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nssl.truststore.password=trust-pw\n");
        KafkaEnds ends = new KafkaEnds("b:9092", KafkaClientConfig.load(file), "in", "out", "dead");
        Map<String, String> options = ends.jobOptions();
        assertThat(options)
                .containsEntry("bootstrap-servers", "b:9092")
                .containsEntry("input-topic", "in")
                .containsEntry("kafka-config", file.toAbsolutePath().normalize().toString());
        // The job's arguments show in Flink's web UI: no setting of the file, a password least of all.
        assertThat(options.values()).noneMatch(value -> value.contains("trust-pw") || value.equals("SASL_SSL"));
        assertThat(FuzzCampaign.jobSettings(ends, ProjectPaths.locate().modelBundle())
                        .kafka()
                        .clientConfig()
                        .properties())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.password", "trust-pw");
    }
}
