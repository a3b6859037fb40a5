package org.itsrt.producers;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/** How the producers send: the acknowledgement they wait for, and how often they report progress. */
final class SendOptions {

    @Option(names = "--acks", description = "all, 1 or 0 (default: all; idempotence is on with all and off otherwise)")
    String acks = "all";

    @Option(
            names = "--progress-every",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "progress line interval on stderr (default: 2s)")
    Duration progressEvery = Duration.ofSeconds(2);
}
