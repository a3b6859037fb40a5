package org.itsrt.cli.options;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/** {@code --sweep RATES} and {@code --step-duration TIME}: the offered rate stepped, each step for a time. */
public final class SweepOptions {

    @Option(
            names = "--sweep",
            paramLabel = "RATES",
            description = "step the offered rate: total records/s of all detectors per step, e.g. 1000,3000,6000 "
                    + "(--rate, --records and demo's --quick do not apply)")
    String sweep;

    @Option(
            names = "--step-duration",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "with --sweep: how long each step sends (default: 60s)")
    Duration stepDuration;

    /** Whether a sweep was asked for. */
    public boolean given() {
        return sweep != null;
    }

    /** The step time given, or null. */
    public Duration stepDuration() {
        return stepDuration;
    }

    /**
     * The rates, in the order given; null without {@code --sweep}.
     *
     * @throws IllegalArgumentException naming the part that is no rate, or a rate that is not above 0
     */
    public List<Double> rates() {
        if (sweep == null) {
            return null;
        }
        List<Double> rates = new ArrayList<>();
        for (String part : sweep.split(",", -1)) {
            double rate;
            try {
                rate = Double.parseDouble(part.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part.strip()
                        + "' is not a rate; expected total records/s separated by commas, e.g. 1000,3000,6000");
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("a rate must be > 0 records/s, got " + rate);
            }
            rates.add(rate);
        }
        return rates;
    }
}
