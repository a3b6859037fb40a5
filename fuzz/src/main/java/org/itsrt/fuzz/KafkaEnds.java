package org.itsrt.fuzz;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.kafka.KafkaClientConfig;

/**
 * The Kafka clients of a campaign, all with the same {@code --kafka-config} settings applied over
 * their defaults, and the topics' size limit.
 *
 * @param bootstrapServers the brokers
 * @param config           the {@code --kafka-config} file's settings (security, SASL, TLS)
 * @param readings         where records are sent
 * @param advice           where the job writes advice
 * @param deadLetters      where the job writes what it rejects
 */
public record KafkaEnds(
        String bootstrapServers, KafkaClientConfig config, String readings, String advice, String deadLetters) {

    /**
     * Room for a record's batch header, key and headers above its value: a topic or a producer
     * must take a value this much larger than the largest one sent.
     */
    static final int RECORD_OVERHEAD_BYTES = 16 * 1024;

    /**
     * A producer that takes records up to {@code largestValue} (the 900 kB one): {@code
     * max.request.size} is set above it, and nothing waits to fill a batch.
     */
    KafkaProducer<byte[], byte[]> producer(int largestValue) {
        Properties p = new Properties();
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                Integer.toString(Math.max(1024 * 1024, largestValue + RECORD_OVERHEAD_BYTES)));
        config.applyTo(p);
        fixed(p);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    /**
     * A consumer that reads only committed records ({@code read_committed}: with an exactly-once
     * job nothing of an aborted transaction counts) and answers a fetch as soon as anything is there.
     */
    KafkaConsumer<byte[], byte[]> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        config.applyTo(p);
        fixed(p);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private Properties admin() {
        Properties p = new Properties();
        config.applyTo(p);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    private void fixed(Properties p) {
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }

    /**
     * Makes the readings and dead-letter topics take records of {@code largestValue} bytes: where a
     * topic's {@code max.message.bytes} is lower, it is raised on that topic.
     *
     * @return one line per topic changed, for the report
     */
    List<String> allowRecordsOf(int largestValue) throws InterruptedException {
        int needed = largestValue + RECORD_OVERHEAD_BYTES;
        List<String> changed = new ArrayList<>();
        try (Admin admin = Admin.create(admin())) {
            List<ConfigResource> topics = List.of(
                    new ConfigResource(ConfigResource.Type.TOPIC, readings),
                    new ConfigResource(ConfigResource.Type.TOPIC, deadLetters));
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(topics).all().get(30, TimeUnit.SECONDS);
            for (ConfigResource topic : topics) {
                ConfigEntry entry = configs.get(topic).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
                long current = entry == null ? 0 : Long.parseLong(entry.value());
                if (current < needed) {
                    Collection<AlterConfigOp> ops = List.of(new AlterConfigOp(
                            new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(needed)),
                            AlterConfigOp.OpType.SET));
                    admin.incrementalAlterConfigs(Map.of(topic, ops)).all().get(30, TimeUnit.SECONDS);
                    changed.add(topic.name() + ": " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " " + current + " -> "
                            + needed);
                }
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException(
                    "could not read or raise max.message.bytes of " + readings + " and " + deadLetters + " at "
                            + bootstrapServers + ": " + cause.getMessage(),
                    cause);
        }
        return changed;
    }

    /**
     * The job's options for these ends. The {@code --kafka-config} file goes to the job by its path,
     * which the job reads where its main runs: its settings (passwords among them) never become job
     * arguments, which Flink shows in its web UI.
     */
    Map<String, String> jobOptions() {
        Map<String, String> options = new java.util.LinkedHashMap<>();
        options.put("bootstrap-servers", bootstrapServers);
        options.put("input-topic", readings);
        options.put("output-topic", advice);
        options.put("dead-letter-topic", deadLetters);
        config.source().ifPresent(file -> options.put("kafka-config", file.toString()));
        return options;
    }
}
