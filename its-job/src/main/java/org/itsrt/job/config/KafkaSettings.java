package org.itsrt.job.config;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.kafka.KafkaClientConfig;

/**
 * The job's Kafka ends: where the brokers are, the three topics, the consumer group, where reading
 * starts, and the client properties passed through as {@code --consumer.KEY} / {@code --producer.KEY}.
 * The input topic differs from both outputs, and the two outputs from each other.
 *
 * @param consumerProperties extra consumer properties, sorted by key
 * @param producerProperties extra producer properties, sorted by key
 * @param clientConfig       the {@code --kafka-config} file's settings (security protocol, SASL,
 *                           TLS), read where the job's main runs and carried inside the job's
 *                           source and sinks: the file's path is the only trace of it in the job's
 *                           arguments, none in its global parameters
 */
public record KafkaSettings(
        String bootstrapServers,
        String inputTopic,
        String outputTopic,
        String deadLetterTopic,
        String groupId,
        StartingOffsets startingOffsets,
        Map<String, String> consumerProperties,
        Map<String, String> producerProperties,
        KafkaClientConfig clientConfig)
        implements Serializable {

    /** Where Kafka offsets start when the consumer group has none to resume from. */
    public enum StartingOffsets {
        /** Only records produced after the job started: what a latency measurement wants. */
        LATEST,
        /** Everything the topic still holds: replays and tests. */
        EARLIEST
    }

    public KafkaSettings {
        if (clientConfig == null) {
            clientConfig = KafkaClientConfig.none();
        }
        consumerProperties = Collections.unmodifiableSortedMap(new TreeMap<>(consumerProperties));
        producerProperties = Collections.unmodifiableSortedMap(new TreeMap<>(producerProperties));
        if (inputTopic.equals(outputTopic) || inputTopic.equals(deadLetterTopic)) {
            throw new JobSettingsException(
                    (inputTopic.equals(outputTopic) ? JobOptions.OUTPUT_TOPIC : JobOptions.DEAD_LETTER_TOPIC).flag(),
                    "'" + inputTopic + "' is also the input topic; the job would read its own output");
        }
        if (outputTopic.equals(deadLetterTopic)) {
            throw new JobSettingsException(
                    JobOptions.DEAD_LETTER_TOPIC.flag(),
                    "'" + deadLetterTopic + "' is also the output topic; dead letters and advice must stay apart");
        }
    }

    /** Settings without a client properties file: plaintext, no authentication. */
    public KafkaSettings(
            String bootstrapServers,
            String inputTopic,
            String outputTopic,
            String deadLetterTopic,
            String groupId,
            StartingOffsets startingOffsets,
            Map<String, String> consumerProperties,
            Map<String, String> producerProperties) {
        this(
                bootstrapServers,
                inputTopic,
                outputTopic,
                deadLetterTopic,
                groupId,
                startingOffsets,
                consumerProperties,
                producerProperties,
                KafkaClientConfig.none());
    }

    static KafkaSettings from(Map<String, String> options) {
        return new KafkaSettings(
                JobOptions.BOOTSTRAP_SERVERS.read(options),
                JobOptions.INPUT_TOPIC.read(options),
                JobOptions.OUTPUT_TOPIC.read(options),
                JobOptions.DEAD_LETTER_TOPIC.read(options),
                JobOptions.GROUP_ID.read(options),
                JobOptions.STARTING_OFFSETS.read(options),
                JobOptions.CONSUMER_PROPERTIES.read(options),
                JobOptions.PRODUCER_PROPERTIES.read(options),
                JobOptions.KAFKA_CONFIG.read(options));
    }
}
