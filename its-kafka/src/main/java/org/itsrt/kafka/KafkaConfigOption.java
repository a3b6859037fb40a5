package org.itsrt.kafka;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --kafka-config FILE} option, one spelling for every command that creates Kafka
 * clients: {@code @Mixin KafkaConfigOption kafkaConfig;} then {@link #load()} once at start, so a
 * bad file fails before anything runs.
 */
public final class KafkaConfigOption {

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description = "Kafka client properties applied to every Kafka client this command creates "
                    + "(security.protocol, sasl.*, ssl.*; Kafka tools' --command-config convention)")
    private Path file;

    /** The file given, or null. */
    public Path file() {
        return file;
    }

    /** The file's settings, or {@link KafkaClientConfig#none()} when the option was not given. */
    public KafkaClientConfig load() {
        return KafkaClientConfig.loadOrNone(file);
    }
}
