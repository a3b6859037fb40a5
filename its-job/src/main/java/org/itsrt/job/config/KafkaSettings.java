package org.itsrt.job.config;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Workload;

/**
 * The job's Kafka ends: where the brokers are, the three topics, the consumer group, where reading
 * starts, and the client properties passed through as {@code --consumer.KEY} / {@code --producer.KEY}.
 * The input topic differs from both outputs, and the two outputs from each other; with
 * {@code --workload district} every topic that workload uses differs from every other
 * ({@link #requireDistinctDistrictTopics}).
 *
 * @param consumerProperties extra consumer properties, sorted by key
 * @param producerProperties extra producer properties, sorted by key
 * @param clientConfig       the {@code --kafka-config} file's settings (security protocol, SASL,
 *                           TLS), read where the job's main runs and carried inside the job's
 *                           source and sinks: the file's path is the only trace of it in the job's
 *                           arguments, none in its global parameters
 * @param districtTopics     the topics of {@code --workload district} only
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
        KafkaClientConfig clientConfig,
        DistrictTopics districtTopics)
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
        if (districtTopics == null) {
            districtTopics = DistrictTopics.DEFAULTS;
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

    /** Settings with the district workload's default topics. */
    public KafkaSettings(
            String bootstrapServers,
            String inputTopic,
            String outputTopic,
            String deadLetterTopic,
            String groupId,
            StartingOffsets startingOffsets,
            Map<String, String> consumerProperties,
            Map<String, String> producerProperties,
            KafkaClientConfig clientConfig) {
        this(
                bootstrapServers,
                inputTopic,
                outputTopic,
                deadLetterTopic,
                groupId,
                startingOffsets,
                consumerProperties,
                producerProperties,
                clientConfig,
                DistrictTopics.DEFAULTS);
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
        KafkaSettings settings = new KafkaSettings(
                JobOptions.BOOTSTRAP_SERVERS.read(options),
                JobOptions.INPUT_TOPIC.read(options),
                JobOptions.OUTPUT_TOPIC.read(options),
                JobOptions.DEAD_LETTER_TOPIC.read(options),
                JobOptions.GROUP_ID.read(options),
                JobOptions.STARTING_OFFSETS.read(options),
                JobOptions.CONSUMER_PROPERTIES.read(options),
                JobOptions.PRODUCER_PROPERTIES.read(options),
                JobOptions.KAFKA_CONFIG.read(options),
                new DistrictTopics(
                        JobOptions.PREDICTIONS_TOPIC.read(options),
                        JobOptions.REQUESTS_TOPIC.read(options),
                        JobOptions.ROUTES_TOPIC.read(options)));
        if (JobOptions.WORKLOAD.read(options) == Workload.DISTRICT) {
            settings.requireDistinctDistrictTopics();
        }
        return settings;
    }

    /**
     * The district workload reads the readings and the requests and writes predictions, routes and
     * dead letters: one topic each, or the job would read its own output or mix two kinds of record
     * on one topic. The study's advice topic is not among them.
     *
     * @throws JobSettingsException naming the later of two options that name the same topic
     */
    void requireDistinctDistrictTopics() {
        Map<String, String> optionByTopic = new LinkedHashMap<>();
        List<Map.Entry<String, String>> used = List.of(
                Map.entry(JobOptions.INPUT_TOPIC.flag(), inputTopic),
                Map.entry(JobOptions.REQUESTS_TOPIC.flag(), districtTopics.requests()),
                Map.entry(JobOptions.PREDICTIONS_TOPIC.flag(), districtTopics.predictions()),
                Map.entry(JobOptions.ROUTES_TOPIC.flag(), districtTopics.routes()),
                Map.entry(JobOptions.DEAD_LETTER_TOPIC.flag(), deadLetterTopic));
        for (Map.Entry<String, String> option : used) {
            String earlier = optionByTopic.putIfAbsent(option.getValue(), option.getKey());
            if (earlier != null) {
                throw new JobSettingsException(
                        option.getKey(),
                        "'" + option.getValue() + "' is also the topic of " + earlier
                                + "; each topic of --workload district must be its own");
            }
        }
    }
}
