package org.itsrt.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientConfigTest {

    @TempDir
    Path dir;

    @Test
    void appliesEverySettingOverTheClientDefaults() throws Exception {
        Path file = Files.writeString(
                dir.resolve("client.properties"), "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nacks=1\n");
        Map<String, Object> client = new HashMap<>(Map.of("acks", "all", "linger.ms", "0"));

        KafkaClientConfig.load(file).applyTo(client);

        assertThat(client)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("acks", "1")
                .containsEntry("linger.ms", "0");
    }

    @Test
    void describingItNeverShowsASecret() throws Exception {
        Path file = Files.writeString(
                dir.resolve("client.properties"),
                "security.protocol=SASL_SSL\n"
                        + "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"job\" password=\"s3cr3t-pw\";\n"
                        + "ssl.truststore.password=trust-pw\n");

        KafkaClientConfig config = KafkaClientConfig.load(file);

        assertThat(config.describe()).contains("SASL_SSL").doesNotContain("s3cr3t-pw", "trust-pw");
        assertThat(config.toString()).doesNotContain("s3cr3t-pw", "trust-pw");
        assertThat(config.redacted()).containsEntry("ssl.truststore.password", KafkaClientConfig.HIDDEN);
        assertThat(config.properties()).containsEntry("ssl.truststore.password", "trust-pw");
    }

    @Test
    void aMissingEmptyOrOverreachingFileIsRefusedNamingIt() throws Exception {
        Path missing = dir.resolve("absent.properties");
        assertThatThrownBy(() -> KafkaClientConfig.load(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("no such file");

        Path empty = Files.writeString(dir.resolve("empty.properties"), "# nothing\n");
        assertThatThrownBy(() -> KafkaClientConfig.load(empty)).hasMessageContaining("no properties");

        Path serializer = Files.writeString(dir.resolve("ser.properties"), "value.serializer=x.Y\n");
        assertThatThrownBy(() -> KafkaClientConfig.load(serializer))
                .hasMessageContaining(serializer.toString())
                .hasMessageContaining("value.serializer");
    }

    @Test
    void noFileMeansNoSettings() {
        assertThat(KafkaClientConfig.loadOrNone(null).isEmpty()).isTrue();
        assertThat(KafkaClientConfig.none().source()).isEmpty();
    }

    @Test
    void aWrittenFileReadsBackOwnerOnlyAndNamesItsUser() throws Exception {
        Path file = dir.resolve("client-job.properties");
        Map<String, String> settings = Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"job\" password=\"pw\";",
                "ssl.truststore.location", "C:\\certs\\ca.pem");

        KafkaClientConfig config = KafkaClientConfig.write(file, settings, "the job's settings");

        assertThat(config.properties()).isEqualTo(settings);
        assertThat(config.user()).contains("job");
        assertThat(config.who()).startsWith("user job (from ").doesNotContain("pw\"");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(KafkaClientConfig.none().user()).isEmpty();
    }
}
