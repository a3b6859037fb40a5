package org.itsrt.stack.kafka;

import picocli.CommandLine.Option;

/** {@code --brokers N}: one Kafka broker, or three with the topics replicated. */
public final class BrokerCountOption {

    @Option(
            names = "--brokers",
            paramLabel = "N",
            description = "Kafka brokers: 1, or 3 with every topic replicated 3 times and min.insync.replicas 2; "
                    + "./its cluster also takes 0: Flink only, for brokers that run elsewhere (default: 1)")
    int brokers = 1;

    public int count() {
        return brokers;
    }
}
