package org.itsrt.kafka;

import picocli.CommandLine.Option;

/** {@code --topic NAME}: the topic a producer writes or a probe measures. */
public final class TopicOption {

    @Option(
            names = "--topic",
            paramLabel = "NAME",
            description =
                    "the topic: produce writes its.readings, probe measures its.advice (end to end, with the job's "
                            + "stages) unless given, e.g. its.readings for the Kafka hop alone")
    String topic;

    /** The topic given, else {@code otherwise}. */
    public String orElse(String otherwise) {
        return topic != null ? topic : otherwise;
    }

    /** What is wrong with a topic name, naming the option; null when Kafka takes it. */
    public static String problem(String topic) {
        if (topic.isBlank()) {
            return "--topic is empty";
        }
        try {
            org.apache.kafka.common.internals.Topic.validate(topic);
            return null;
        } catch (org.apache.kafka.common.errors.InvalidTopicException e) {
            return "--topic: " + e.getMessage();
        }
    }
}
