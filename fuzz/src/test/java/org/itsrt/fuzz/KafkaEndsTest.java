package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.kafka.KafkaClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The campaign's Kafka ends hand the job a client properties file by its path. */
class KafkaEndsTest {

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
