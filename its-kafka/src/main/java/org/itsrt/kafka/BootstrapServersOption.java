package org.itsrt.kafka;

import picocli.CommandLine.Option;

/** {@code --bootstrap-servers HOST:PORT}: the Kafka cluster a command's clients connect to. */
public final class BootstrapServersOption {

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "a Kafka cluster that already runs, HOST:PORT[,HOST:PORT...]; the pipeline's topics are "
                    + "created there when missing (default: produce and probe, localhost:9092; the run commands start "
                    + "a local broker instead)")
    String servers;

    /** The servers given, or null. */
    public String given() {
        return servers;
    }

    /** The servers given, else {@code otherwise}. */
    public String orElse(String otherwise) {
        return servers != null ? servers : otherwise;
    }
}
