package org.itsrt.cli.options;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * {@code --rate HZ}, records per second from each detector, the study's unit of load, or its
 * second spelling {@code --speedup X}, the replay's speed-up of the real 5-minute cadence: one
 * reading per detector every 300 s / X, so X = 3000 is the study's 10 records/s. Both describe the
 * same thing, so a command takes one or the other (picocli refuses both in one line) and holds
 * only the rate.
 */
public final class RateOption {

    /** The study's load: 10 records/s from each detector. */
    public static final double STUDY_RATE_HZ = 10;

    /**
     * The real cadence a speed-up of 1 replays: one reading per detector per 5-minute interval,
     * the canonical table's ({@code Reading.INTERVAL}).
     */
    public static final double READING_INTERVAL_SECONDS = 300;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Given given;

    /** The two spellings; picocli allows at most one. */
    static final class Given {
        @Option(
                names = "--rate",
                paramLabel = "HZ",
                description = "records per second per detector, open loop (default: 10, the study's load)")
        Double rate;

        @Option(
                names = "--speedup",
                paramLabel = "X",
                converter = Speedup.class,
                description = "instead of --rate: replay the real 5-minute cadence X times faster, one record per "
                        + "detector every 300 s / X (3000 = 10 records/s per detector, the study's load)")
        Double speedup;
    }

    /** A speed-up is a positive, finite factor. */
    static final class Speedup implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double x;
            try {
                x = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                x = Double.NaN;
            }
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new CommandLine.TypeConversionException(
                        "expected a factor > 0 (3000 replays the 5-minute cadence at 10 records/s per detector), got '"
                                + value + "'");
            }
            return x;
        }
    }

    /** The records/s per detector a speed-up replays: {@code speedup / 300 s}. */
    public static double rateOfSpeedup(double speedup) {
        return speedup / READING_INTERVAL_SECONDS;
    }

    /** The rate given, as {@code --rate} or converted from {@code --speedup}, or null. */
    public Double given() {
        if (given == null) {
            return null;
        }
        return given.speedup != null ? rateOfSpeedup(given.speedup) : given.rate;
    }

    /** The rate given, else the study's. */
    public double perDetector() {
        Double rate = given();
        return rate != null ? rate : STUDY_RATE_HZ;
    }

    /**
     * How the rate was given, to name it in a refusal: {@code --rate}, or {@code --speedup X} with
     * the rate it stands for.
     */
    public String option() {
        return given != null && given.speedup != null
                ? "--speedup " + plain(given.speedup) + " (" + plain(given()) + " records/s per detector):"
                : "--rate";
    }

    private static String plain(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
