package org.itsrt.scheduling.cli;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --period-us US}: a reservation's period, or the periods a budget search bisects (repeated
 * or comma-separated); a command that takes one refuses more.
 */
public final class PeriodOption {

    @Option(
            names = "--period-us",
            split = ",",
            paramLabel = "US",
            description = "the period, us: ./its budget and budget apply take one, with --budget-us; ./its tune takes "
                    + "one or more to search, repeated or comma-separated, and the lowest share of a CPU wins "
                    + "(default there: the periods of the base file's rows)")
    List<Long> periods;

    /** The periods given, in order; null when none were. */
    public List<Long> all() {
        return periods == null ? null : List.copyOf(periods);
    }

    /**
     * The one period given, or null.
     *
     * @throws IllegalArgumentException when more than one was given
     */
    public Long one() {
        if (periods == null || periods.isEmpty()) {
            return null;
        }
        if (periods.size() > 1) {
            throw new IllegalArgumentException("--period-us takes one period here, got " + periods);
        }
        return periods.get(0);
    }
}
