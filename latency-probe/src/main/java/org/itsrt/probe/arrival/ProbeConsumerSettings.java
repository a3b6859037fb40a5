package org.itsrt.probe.arrival;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaRefusal;

/** The probe's Kafka client settings, and the check that the broker and topic are there. */
public final class ProbeConsumerSettings {

    /**
     * Longest time a fetch waits on the broker when there is nothing to return. With
     * {@code fetch.min.bytes=1} the broker answers as soon as a record is appended, so this is not
     * added to any record's latency; it bounds the delay should a waiting fetch not be woken, at the
     * cost of about 100 empty fetches a second on an idle topic. Kafka's default is 500 ms.
     */
    public static final int FETCH_MAX_WAIT_MS = 10;

    private ProbeConsumerSettings() {}

    /**
     * Consumer properties tuned for latency. {@code overrides} ({@code --consumer-prop}) are
     * applied last and win.
     */
    public static Properties consumer(
            String bootstrapServers, String groupId, boolean fromBeginning, Map<String, String> overrides) {
        return consumer(bootstrapServers, groupId, fromBeginning, KafkaClientConfig.none(), overrides);
    }

    /**
     * {@link #consumer(String, String, boolean, Map)} with a client properties file's settings
     * ({@code --kafka-config}) over the latency defaults and under {@code overrides}.
     */
    public static Properties consumer(
            String bootstrapServers,
            String groupId,
            boolean fromBeginning,
            KafkaClientConfig kafkaConfig,
            Map<String, String> overrides) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, groupId);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // Answer a fetch as soon as one byte is there: batching on the broker would add latency.
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Integer.toString(FETCH_MAX_WAIT_MS));
        // A probe measures what is sent while it runs; --from-beginning re-reads a topic instead.
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        // A fresh group per run with nothing to resume: committing offsets would only cost requests.
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        kafkaConfig.applyTo(props);
        props.putAll(overrides);
        return props;
    }

    /**
     * The partitions of {@code topic}, asked of the broker with Admin {@code describeTopics}.
     *
     * @param overrides the user's {@code --consumer-prop} settings; security settings among them
     *                  apply to this connection too
     * @throws KafkaUnavailableException when no broker answers within {@code timeout} or the topic
     *                                   does not exist, with a message saying which
     */
    public static List<TopicPartition> partitionsOf(
            String bootstrapServers, String topic, Duration timeout, Map<String, String> overrides)
            throws KafkaUnavailableException {
        return partitionsOf(bootstrapServers, topic, timeout, KafkaClientConfig.none(), overrides);
    }

    /**
     * {@link #partitionsOf(String, String, Duration, Map)} connecting with a client properties
     * file's settings; a refused login or a missing ACL is named with the user (KafkaRefusal).
     */
    public static List<TopicPartition> partitionsOf(
            String bootstrapServers,
            String topic,
            Duration timeout,
            KafkaClientConfig kafkaConfig,
            Map<String, String> overrides)
            throws KafkaUnavailableException {
        Properties props = new Properties();
        kafkaConfig.applyTo(props);
        props.putAll(overrides);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        int timeoutMs = (int) Math.max(1, timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "its-probe-check");
        Admin admin;
        try {
            admin = Admin.create(props);
        } catch (KafkaException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new KafkaUnavailableException(
                    "cannot connect to --bootstrap-servers " + bootstrapServers + ": " + cause.getMessage());
        }
        try {
            TopicDescription description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(timeoutMs + 1000L, TimeUnit.MILLISECONDS)
                    .get(topic);
            List<TopicPartition> partitions = new ArrayList<>();
            description.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            partitions.sort(Comparator.comparingInt(TopicPartition::partition));
            return partitions;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            var refused = KafkaRefusal.explain(e, kafkaConfig, bootstrapServers, List.of(topic));
            if (refused.isPresent()) {
                throw new KafkaUnavailableException(refused.get());
            }
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new KafkaUnavailableException("topic " + topic + " does not exist on " + bootstrapServers
                        + " (create it before starting the probe, or pass --topic)");
            }
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(bootstrapServers, timeout, kafkaConfig);
            }
            throw new KafkaUnavailableException("cannot describe topic " + topic + " on " + bootstrapServers + ": "
                    + (cause == null ? e.getMessage() : cause.getMessage()));
        } catch (TimeoutException e) {
            throw unreachable(bootstrapServers, timeout, kafkaConfig);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while checking topic " + topic);
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }

    private static KafkaUnavailableException unreachable(
            String bootstrapServers, Duration timeout, KafkaClientConfig kafkaConfig) {
        return new KafkaUnavailableException("no Kafka broker answered at --bootstrap-servers " + bootstrapServers
                + " within " + timeout.toMillis() / 1000.0 + " s (is the broker running?"
                + (kafkaConfig.isEmpty()
                        ? " A secured cluster needs --kafka-config FILE.)"
                        : " Does " + kafkaConfig.source().orElseThrow() + " match its listener (security.protocol)?)"));
    }

    /** The broker or the topic is not there; the message says which and what to do. */
    public static final class KafkaUnavailableException extends Exception {
        public KafkaUnavailableException(String message) {
            super(message);
        }
    }
}
