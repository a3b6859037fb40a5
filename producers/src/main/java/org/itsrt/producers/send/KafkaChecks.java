package org.itsrt.producers.send;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaRefusal;

/**
 * Checks before a run that the broker answers and the topic exists, so that a typo or a stopped
 * broker gives one clear message at once instead of a producer blocking and timing out later.
 */
public final class KafkaChecks {

    private KafkaChecks() {}

    /** @throws IllegalStateException naming the broker or the topic that is not there */
    public static void requireTopic(String bootstrapServers, String topic, Map<String, String> clientProps) {
        requireTopic(bootstrapServers, topic, KafkaClientConfig.none(), clientProps);
    }

    /**
     * {@link #requireTopic(String, String, Map)} as the producers will connect: with the client
     * properties file's settings, under {@code clientProps}.
     *
     * @throws IllegalStateException naming the broker or the topic that is not there, or the user
     *                               the cluster refused and what it refused
     */
    public static void requireTopic(
            String bootstrapServers, String topic, KafkaClientConfig kafkaConfig, Map<String, String> clientProps) {
        var config = new java.util.HashMap<String, Object>();
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        kafkaConfig.applyTo(config);
        config.putAll(clientProps);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(config)) {
            try {
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(KafkaRefusal.explain(e, kafkaConfig, bootstrapServers)
                        .orElse("cannot reach Kafka at " + bootstrapServers
                                + " within 10 s; is a broker running there? (./its kafka starts a local one)"
                                + (kafkaConfig.isEmpty()
                                        ? " A secured cluster needs --kafka-config FILE."
                                        : " Does " + kafkaConfig.source().orElseThrow()
                                                + " match its listener (security.protocol)?")));
            }
            try {
                admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                var refused = KafkaRefusal.explain(e, kafkaConfig, bootstrapServers, List.of(topic));
                if (refused.isPresent()) {
                    throw new IllegalStateException(refused.get());
                }
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new IllegalStateException("topic " + topic + " does not exist on " + bootstrapServers
                            + "; create it first (./its kafka creates the pipeline's topics)");
                }
                throw new IllegalStateException("cannot describe topic " + topic + " on " + bootstrapServers + ": "
                        + e.getCause().getMessage());
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "Kafka at " + bootstrapServers + " did not describe topic " + topic + " within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking Kafka at " + bootstrapServers, e);
        }
    }
}
