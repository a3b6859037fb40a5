package org.itsrt.pipeline;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Workload;
import org.itsrt.stack.kafka.KafkaSecurity;
import org.itsrt.stack.kafka.KafkaTopics;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;

/**
 * Where the demo's topics live: a local broker started for the run (a child JVM, removed at the
 * end) or a Kafka cluster that already runs (left as it is; the pipeline's topics are created
 * when missing).
 */
interface KafkaBroker extends AutoCloseable {

    String bootstrapServers();

    /** The broker's process on this host, when the demo started it. */
    OptionalLong pid();

    /** One line for the run's report. */
    String describe();

    /**
     * Stops the broker's process ({@code how}); its data folder and ports stay for {@link #start()}.
     *
     * @throws UnsupportedOperationException for a broker the run did not start
     */
    void stop(RunningStack.BrokerStop how);

    /**
     * Starts the stopped broker again on the same data folder, KRaft cluster id, node id and
     * ports, and waits until it serves: clients reconnect to the address they had.
     *
     * @throws UnsupportedOperationException for a broker the run did not start
     */
    void start();

    /** How {@code user}'s part of the run (producers, job, probe; admin: the run's own checks) connects. */
    KafkaClientConfig clientConfig(KafkaSecurity.User user);

    /** The users and passwords of a secured broker the run started. */
    Optional<KafkaSecurity> security();

    @Override
    void close();

    /**
     * The topics a run's broker holds: the study's pipeline and the district workload's, so that one
     * stack runs either workload.
     */
    List<String> TOPICS = java.util.stream.Stream.concat(
                    Workload.STUDY.topics().stream(), Workload.DISTRICT.topics().stream())
            .distinct()
            .toList();

    /** The node id of the one broker a run starts. */
    int NODE = 1;

    /**
     * @param partitions of each pipeline topic: at least the job's parallelism, since a Kafka
     *                   source subtask reads whole partitions and one without any reads nothing
     */
    static KafkaBroker local(String heap, List<String> jvmArgs, boolean secure, int partitions) {
        LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults()
                .withHeap(heap)
                .withExtraJvmArgs(jvmArgs)
                .withSecurity(secure));
        try {
            kafka.createTopics(TOPICS, partitions);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return new KafkaBroker() {
            @Override
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.of(kafka.pid());
            }

            @Override
            public String describe() {
                return new StackSpec.Broker.Local(heap, jvmArgs, secure).describe();
            }

            @Override
            public KafkaClientConfig clientConfig(KafkaSecurity.User user) {
                return kafka.clientConfig(user);
            }

            @Override
            public Optional<KafkaSecurity> security() {
                return kafka.security();
            }

            @Override
            public void stop(RunningStack.BrokerStop how) {
                switch (how) {
                    case TERM -> kafka.stopBroker(NODE);
                    case KILL -> kafka.killBroker(NODE);
                }
            }

            @Override
            public void start() {
                kafka.restartBroker(NODE);
            }

            @Override
            public void close() {
                kafka.close();
            }
        };
    }

    /** @param partitions of each pipeline topic this creates; a topic that exists is left as it is */
    static KafkaBroker existing(String bootstrapServers, KafkaClientConfig config, int partitions) {
        KafkaTopics.ensure(bootstrapServers, config, TOPICS, partitions);
        return new KafkaBroker() {
            @Override
            public String bootstrapServers() {
                return bootstrapServers;
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.empty();
            }

            @Override
            public String describe() {
                return new StackSpec.Broker.Existing(bootstrapServers, config).describe();
            }

            @Override
            public KafkaClientConfig clientConfig(KafkaSecurity.User user) {
                return config;
            }

            @Override
            public Optional<KafkaSecurity> security() {
                return Optional.empty();
            }

            @Override
            public void stop(RunningStack.BrokerStop how) {
                throw notOurs();
            }

            @Override
            public void start() {
                throw notOurs();
            }

            private UnsupportedOperationException notOurs() {
                return new UnsupportedOperationException("the Kafka cluster at " + bootstrapServers
                        + " was not started by this run: it is not the run's to stop or start");
            }

            @Override
            public void close() {
                // Not ours to stop.
            }
        };
    }
}
