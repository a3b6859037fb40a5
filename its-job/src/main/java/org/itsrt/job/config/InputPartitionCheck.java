package org.itsrt.job.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Compares the input topic's partition count with the job's parallelism before the job starts.
 * Each Kafka source subtask reads whole partitions, so with fewer partitions than subtasks some
 * subtasks never get a record, and the job's throughput is that of the partitions, not of the
 * parallelism asked for. The job still runs (the topic may be meant to grow), so this warns
 * rather than refuses. An unreachable broker or a missing topic gives a note instead: the check is
 * skipped, and the source itself reports what it finds when it starts.
 */
public final class InputPartitionCheck {

    /** How long the check waits for the broker; short, because it only warns. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private InputPartitionCheck() {}

    /**
     * The warnings for the input topic of {@code kafka} read by {@code parallelism} subtasks: none
     * when it has enough partitions; one naming the topic, its partition count and the
     * parallelism when it has fewer; one note when the check could not be made.
     */
    public static List<String> warnings(KafkaSettings kafka, int parallelism, Duration timeout) {
        return warnings(kafka, kafka.inputTopic(), parallelism, timeout);
    }

    /**
     * As {@link #warnings(KafkaSettings, int, Duration)}, for another topic the job reads: the
     * district workload's route requests.
     */
    public static List<String> warnings(KafkaSettings kafka, String inputTopic, int parallelism, Duration timeout) {
        Admin admin = Admin.create(adminProperties(kafka, timeout));
        try {
            TopicDescription topic = admin.describeTopics(List.of(inputTopic))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(inputTopic);
            return warnings(inputTopic, topic.partitions().size(), parallelism);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return List.of("partition check skipped: input topic '" + inputTopic + "' does not exist on "
                        + kafka.bootstrapServers() + " yet; the job's parallelism is " + parallelism);
            }
            return List.of(skipped(kafka, inputTopic, String.valueOf(e.getCause())));
        } catch (TimeoutException e) {
            return List.of(skipped(kafka, inputTopic, "no answer within " + timeout.toMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of(skipped(kafka, inputTopic, "interrupted"));
        } finally {
            admin.close(timeout);
        }
    }

    /** The warning for a topic of {@code partitions} partitions read by {@code parallelism} subtasks. */
    static List<String> warnings(String topic, int partitions, int parallelism) {
        if (partitions >= parallelism) {
            return List.of();
        }
        return List.of("input topic '" + topic + "' has " + partitions + " partition(s) but the job's parallelism is "
                + parallelism + ": " + (parallelism - partitions)
                + " source subtask(s) will read nothing; give the topic at least " + parallelism
                + " partitions or lower --parallelism");
    }

    private static String skipped(KafkaSettings kafka, String inputTopic, String why) {
        return "partition check of input topic '" + inputTopic + "' skipped: cannot reach Kafka at "
                + kafka.bootstrapServers() + " (" + why + ")";
    }

    /**
     * The servers, the {@code --kafka-config} file's settings and the consumer's own client
     * properties (given as {@code --consumer.KEY}) that an admin client knows, as the job's source
     * would connect; the rest are consumer-only and would be logged as unknown.
     */
    static Properties adminProperties(KafkaSettings kafka, Duration timeout) {
        Map<String, Object> client = kafka.clientConfig().applyTo(new java.util.HashMap<>());
        kafka.consumerProperties().forEach(client::put);
        Properties p = new Properties();
        for (Map.Entry<String, Object> e : client.entrySet()) {
            if (AdminClientConfig.configNames().contains(e.getKey())) {
                p.setProperty(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, kafka.groupId() + "-partition-check");
        return p;
    }
}
