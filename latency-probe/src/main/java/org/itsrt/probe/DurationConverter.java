package org.itsrt.probe;

import picocli.CommandLine;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations on the command line: {@code 250ms}, {@code 10s}, {@code 1.5s}, {@code 5m} (or
 * {@code 5min}), {@code 2h}, a plain number of seconds, or ISO-8601 ({@code PT10S}).
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|min|h)?");

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(text);
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            double nanosPerUnit = switch (unit) {
                case "ns" -> 1;
                case "us" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m", "min" -> 60e9;
                case "h" -> 3600e9;
                default -> throw new IllegalStateException(unit);
            };
            double nanos = amount * nanosPerUnit;
            if (nanos > Long.MAX_VALUE) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too long a duration");
            }
            return Duration.ofNanos(Math.round(nanos));
        }
        try {
            Duration parsed = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            if (parsed.isNegative()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative");
            }
            return parsed;
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not a duration (examples: 500ms, 10s, 1.5s, 5m, 2h, PT30S)");
        }
    }

    /** Short text of a duration for reports, e.g. {@code 10s}, {@code 250ms}. */
    public static String describe(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return nanos + "ns";
    }
}
