package org.itsrt.cli.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/** {@code --steady-after TIME}: the start of the measured records left out of the steady-state rows. */
public final class SteadyAfterOption {

    @Option(
            names = "--steady-after",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "left out of the steady-state rows, counted from the first measured arrival; warm-up records "
                    + "are kept apart whatever this is (default: 0 after a warm-up; without one 120s, 10s with demo's "
                    + "--quick; probe: 120s)")
    Duration steadyAfter;

    /** The cut given, or null. */
    public Duration given() {
        return steadyAfter;
    }
}
