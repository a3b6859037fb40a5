package org.itsrt.cli.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --start-timeout TIME}: how long a started part (a broker, a Flink or ZooKeeper process)
 * may take to answer. Each command keeps its own default, because a three-broker Kafka needs
 * longer than one process; an emulated machine needs minutes.
 */
public final class StartTimeoutOption {

    @Option(
            names = "--start-timeout",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "how long each started part may take to answer, e.g. 10m on an emulated machine (default: "
                    + "cluster up 120 s; kafka 90 s for one broker, 180 s for each of three)")
    Duration startTimeout;

    /** The command this option belongs to: a time it cannot have is a usage error of that command. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The time given, or {@code fallback} when none was; a zero or negative time is a usage error. */
    public Duration orElse(Duration fallback) {
        if (startTimeout == null) {
            return fallback;
        }
        if (startTimeout.isZero() || startTimeout.isNegative()) {
            throw new CommandLine.ParameterException(
                    command.commandLine(), "--start-timeout must be positive, e.g. 120s or 10m");
        }
        return startTimeout;
    }
}
