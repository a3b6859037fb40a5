package org.itsrt.cli.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/** {@code --duration TIME}: how long a command sends or measures, instead of a record count. */
public final class DurationOption {

    @Option(
            names = "--duration",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "how long: produce sends for this long instead of --records; probe stops this long after it "
                    + "is ready; e.g. 90s, 5m, 1m30s (default: no limit)")
    Duration duration;

    /** The time given, or null. */
    public Duration given() {
        return duration;
    }
}
