package org.itsrt.stack.kafka;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.TopicExistsException;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaRefusal;

/**
 * The pipeline's topics on any Kafka cluster, a {@link LocalKafka} or one that already runs:
 * created where missing and described partition by partition, with Kafka's own admin client.
 */
public final class KafkaTopics {

    private KafkaTopics() {}

    /**
     * Creates the topics that a Kafka cluster (this one or any other) lacks, with the cluster's
     * default replication factor; existing ones are left as they are.
     */
    public static void ensure(String bootstrapServers, Collection<String> names, int partitions) {
        ensure(bootstrapServers, KafkaClientConfig.none(), names, partitions);
    }

    /** {@link #ensure(String, Collection, int)} with a client properties file's settings. */
    public static void ensure(
            String bootstrapServers, KafkaClientConfig clientConfig, Collection<String> names, int partitions) {
        create(bootstrapServers, clientConfig, names, partitions, Optional.empty(), Map.of());
    }

    /** Creates those of {@code names} the cluster lacks, with these replicas and settings. */
    static void create(
            String bootstrapServers,
            KafkaClientConfig clientConfig,
            Collection<String> names,
            int partitions,
            Optional<Short> replicationFactor,
            Map<String, String> configs) {
        try (Admin admin = admin(bootstrapServers, clientConfig)) {
            List<NewTopic> topics = names.stream()
                    .map(n -> new NewTopic(n, Optional.of(partitions), replicationFactor).configs(configs))
                    .toList();
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw KafkaRefusal.refused(
                                        e.getCause(), clientConfig, bootstrapServers, List.of(entry.getKey()))
                                .map(IllegalStateException.class::cast)
                                .orElseGet(() -> new IllegalStateException(
                                        "cannot create topic " + entry.getKey() + " on " + bootstrapServers + ": "
                                                + e.getCause().getMessage(),
                                        e.getCause()));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topics on " + bootstrapServers + " timed out", e);
        }
    }

    /** The partitions of {@code topics} on any Kafka cluster, by topic in the order given. */
    public static Map<String, List<PartitionState>> describe(String bootstrapServers, Collection<String> topics) {
        return describe(bootstrapServers, KafkaClientConfig.none(), topics);
    }

    /** {@link #describe(String, Collection)} with a client properties file's settings. */
    public static Map<String, List<PartitionState>> describe(
            String bootstrapServers, KafkaClientConfig clientConfig, Collection<String> topics) {
        try (Admin admin = admin(bootstrapServers, clientConfig)) {
            return describe(admin, topics);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot describe " + topics + " on " + bootstrapServers + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("describing " + topics + " on " + bootstrapServers + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topics, e);
        }
    }

    static Map<String, List<PartitionState>> describe(Admin admin, Collection<String> topics)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<String, TopicDescription> descriptions =
                admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
        Map<String, List<PartitionState>> states = new LinkedHashMap<>();
        for (String topic : topics) {
            states.put(
                    topic,
                    descriptions.get(topic).partitions().stream()
                            .map(p -> new PartitionState(
                                    topic,
                                    p.partition(),
                                    p.leader() == null || p.leader().isEmpty()
                                            ? -1
                                            : p.leader().id(),
                                    ids(p.replicas()),
                                    ids(p.isr())))
                            .toList());
        }
        return states;
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    /** An admin client with short timeouts and the client properties file's settings; the caller closes it. */
    static Admin admin(String bootstrapServers, KafkaClientConfig clientConfig) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        clientConfig.applyTo(config);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return Admin.create(config);
    }
}
