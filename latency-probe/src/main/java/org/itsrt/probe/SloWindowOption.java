package org.itsrt.probe;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/** {@code --window TIME}: the window a p95 is taken over for the SLO-violation ratio. */
public final class SloWindowOption {

    @Option(
            names = "--window",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "SLO window: p95 is taken per window of this length (default: 1s)")
    Duration window = Duration.ofSeconds(1);

    public Duration window() {
        return window;
    }

    /** What is wrong with the window, naming the option; null when nothing is. */
    public String problem() {
        return window.isZero() || window.isNegative() ? "--window must be longer than 0" : null;
    }
}
