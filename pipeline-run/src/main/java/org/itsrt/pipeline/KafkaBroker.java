package org.itsrt.pipeline;

import java.util.List;
import java.util.OptionalLong;
import org.itsrt.stack.kafka.LocalKafka;

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

    @Override
    void close();

    static KafkaBroker local(String heap, List<String> jvmArgs) {
        LocalKafka kafka =
                LocalKafka.start(LocalKafka.Options.defaults().withHeap(heap).withExtraJvmArgs(jvmArgs));
        try {
            kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
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
                return "KRaft, child process (heap " + heap
                        + (jvmArgs.isEmpty() ? "" : ", " + String.join(" ", jvmArgs)) + ")";
            }

            @Override
            public void close() {
                kafka.close();
            }
        };
    }

    static KafkaBroker existing(String bootstrapServers) {
        LocalKafka.ensureTopics(bootstrapServers, LocalKafka.PIPELINE_TOPICS, 1);
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
                return "existing cluster at " + bootstrapServers;
            }

            @Override
            public void close() {
                // Not ours to stop.
            }
        };
    }
}
