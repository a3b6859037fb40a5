package org.itsrt.producers;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How the producers send: the acknowledgement they wait for, how many threads send, how often
 * they report progress, and a step in the rate.
 */
final class SendOptions {

    @Option(names = "--acks", description = "all, 1 or 0 (default: all; idempotence is on with all and off otherwise)")
    String acks = "all";

    @Option(
            names = "--sender-threads",
            paramLabel = "N",
            description = "threads sending, each with its own Kafka producer and an even share of the detectors, at "
                    + "most one per detector (default: one per detector up to 6, the study's shape; 4 beyond)")
    int senderThreads;

    @Option(
            names = "--progress-every",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "progress line interval on stderr (default: 2s)")
    Duration progressEvery = Duration.ofSeconds(2);

    @Mixin
    LoadStepOption loadStep;
}
