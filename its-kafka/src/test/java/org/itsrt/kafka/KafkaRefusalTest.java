package org.itsrt.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaRefusalTest {

    @TempDir
    Path dir;

    private KafkaClientConfig probe() throws Exception {
        return KafkaClientConfig.load(Files.writeString(
                dir.resolve("client-probe.properties"),
                "security.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule"
                        + " required username=\"probe\" password=\"pw-probe\";\n"));
    }

    @Test
    void aTopicWithoutAnAclIsNamedWithTheUserAndTheFile() throws Exception {
        var failure = new ExecutionException(new TopicAuthorizationException(Set.of("its.readings")));

        String line = KafkaRefusal.explain(failure, probe(), "b:1").orElseThrow();

        assertThat(line)
                .startsWith("user probe (from " + dir.resolve("client-probe.properties"))
                .contains("may not use topic its.readings on b:1")
                .doesNotContain("pw-probe");
    }

    @Test
    void theTopicsAskedForStandInWhenTheRefusalNamesNone() throws Exception {
        var failure = new ExecutionException(new TopicAuthorizationException("Topic authorization failed."));

        assertThat(KafkaRefusal.explain(failure, probe(), "b:1", List.of("its.advice")))
                .hasValueSatisfying(line -> assertThat(line).contains("may not use topic its.advice"));
    }

    @Test
    void aRefusedLoginNamesTheUser() throws Exception {
        var failure = new SaslAuthenticationException("invalid credentials");

        assertThat(KafkaRefusal.explain(failure, probe(), "b:1")).hasValueSatisfying(line -> assertThat(line)
                .startsWith("Kafka at b:1 refused the login of user probe"));
    }

    @Test
    void anExplainedRefusalIsPassedOnAsItIsAndOtherFailuresAreNoRefusal() throws Exception {
        var inner = KafkaRefusal.refused(new TopicAuthorizationException("x"), probe(), "b:1", List.of("its.readings"))
                .orElseThrow();
        var outer = new IllegalStateException("wrapped", inner);

        assertThat(KafkaRefusal.explain(outer, KafkaClientConfig.none(), "elsewhere"))
                .contains(inner.getMessage());
        assertThat(KafkaRefusal.explain(new TimeoutException("slow"), probe(), "b:1"))
                .isEmpty();
    }
}
