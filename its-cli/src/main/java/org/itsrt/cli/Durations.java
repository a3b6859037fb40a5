package org.itsrt.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way durations are written on every command line and in every experiment file, and the
 * one way reports print them. The value is a {@link Duration}; this class is its text form.
 *
 * <p>Accepted, case-insensitive, spaces allowed around the number and the unit:
 * <ul>
 *   <li>a number and a unit: {@code 500ms}, {@code 30s}, {@code 1.5s}, {@code 2m}, {@code 1h};
 *       units {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m} (or {@code min}), {@code h};</li>
 *   <li>several of those, largest unit first, each unit once: {@code 1m30s}, {@code 1h15m}, {@code 2s500ms};</li>
 *   <li>a plain number of seconds: {@code 10}, {@code 0.25}, {@code 0} (the probe always took these);</li>
 *   <li>ISO-8601 as {@link Duration#parse} reads it: {@code PT30S}, {@code PT1M30S}.</li>
 * </ul>
 * Negative durations are refused; zero is accepted, and a caller that needs more says so naming
 * its option (e.g. {@code --window must be longer than 0}). Fractions finer than a nanosecond are
 * rounded to the nearest one.
 *
 * <p>{@link #format} writes the shortest text this parser reads back to the same value
 * ({@code 1m30s}, {@code 250ms}, {@code 1.5s}), so a report's settings can be pasted into a command.
 */
public final class Durations {

    /** What a refusal offers as examples. */
    public static final String EXAMPLES = "500ms, 30s, 1.5s, 2m, 1m30s, 1h";

    private static final Pattern PART = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|min|m|h)\\s*");
    private static final Pattern PLAIN_SECONDS = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*");
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private static final long NS_PER_US = 1_000L;
    private static final long NS_PER_MS = 1_000_000L;
    private static final long NS_PER_S = 1_000_000_000L;
    private static final long NS_PER_M = 60 * NS_PER_S;
    private static final long NS_PER_H = 60 * NS_PER_M;

    private Durations() {}

    /**
     * Reads a duration.
     *
     * @param text  what the user wrote
     * @param where the option or key it was given for ({@code --duration}, {@code warmup}), used
     *              to start the message of a refusal; {@code null} to leave it out (picocli names
     *              the option itself)
     * @throws BadDurationException naming {@code where}, what was written and examples of what is read
     */
    public static Duration parse(String text, String where) {
        if (text == null || text.isBlank()) {
            throw new BadDurationException(where, "is empty; write a duration such as " + EXAMPLES);
        }
        String trimmed = text.strip();
        if (trimmed.startsWith("-")) {
            throw new BadDurationException(
                    where, "'" + text + "' is negative; a duration is 0 or more, e.g. " + EXAMPLES);
        }
        if (trimmed.length() > 1 && (trimmed.charAt(0) == 'P' || trimmed.charAt(0) == 'p')) {
            return iso(text, trimmed, where);
        }
        String lower = trimmed.toLowerCase(Locale.ROOT);
        Matcher plain = PLAIN_SECONDS.matcher(lower);
        if (plain.matches()) {
            return ofNanos(new BigDecimal(plain.group(1)).multiply(BigDecimal.valueOf(NS_PER_S)), text, where);
        }
        Matcher part = PART.matcher(lower);
        BigDecimal nanos = BigDecimal.ZERO;
        long previousUnit = Long.MAX_VALUE;
        int at = 0;
        while (at < lower.length()) {
            if (!part.find(at) || part.start() != at) {
                throw new BadDurationException(
                        where,
                        "'" + text + "' is not a duration; write e.g. " + EXAMPLES
                                + " (units ns, us, ms, s, m, h; a plain number is seconds)");
            }
            long unit = nanosPer(part.group(2));
            if (unit >= previousUnit) {
                throw new BadDurationException(
                        where,
                        "'" + text + "' repeats a unit or puts a smaller one first; "
                                + "write the largest unit first, each once, e.g. 1h15m, 1m30s, 2s500ms");
            }
            previousUnit = unit;
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(unit)));
            at = part.end();
        }
        return ofNanos(nanos, text, where);
    }

    /**
     * The shortest text {@link #parse} reads back to {@code duration}: hours, minutes and seconds
     * as far as they go ({@code 1h}, {@code 1m30s}, {@code 1.5s}), milliseconds, microseconds or
     * nanoseconds below a second ({@code 250ms}, {@code 12.5us}, {@code 80ns}).
     */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            // Never parsed (negative is refused), but a report may print a difference of two times.
            return "-" + format(duration.negated());
        }
        if (duration.isZero()) {
            return "0s";
        }
        long seconds = duration.getSeconds();
        int nanos = duration.getNano();
        if (seconds == 0) {
            if (nanos < NS_PER_US) {
                return nanos + "ns";
            }
            if (nanos < NS_PER_MS) {
                return decimal(nanos, 3) + "us";
            }
            return decimal(nanos, 6) + "ms";
        }
        StringBuilder text = new StringBuilder();
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (minutes > 0) {
            text.append(minutes).append('m');
        }
        if (rest > 0 || nanos > 0) {
            text.append(BigDecimal.valueOf(rest)
                            .add(BigDecimal.valueOf(nanos, 9))
                            .stripTrailingZeros()
                            .toPlainString())
                    .append('s');
        }
        return text.toString();
    }

    private static Duration iso(String text, String trimmed, String where) {
        try {
            Duration parsed = Duration.parse(trimmed.toUpperCase(Locale.ROOT));
            if (parsed.isNegative()) {
                throw new BadDurationException(
                        where, "'" + text + "' is negative; a duration is 0 or more, e.g. " + EXAMPLES);
            }
            return parsed;
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new BadDurationException(
                    where,
                    "'" + text + "' is not an ISO-8601 duration such as PT30S or PT1M30S; " + "or write e.g. "
                            + EXAMPLES);
        }
    }

    private static Duration ofNanos(BigDecimal nanos, String text, String where) {
        BigDecimal whole = nanos.setScale(0, RoundingMode.HALF_UP);
        if (whole.compareTo(LONG_MAX) > 0) {
            throw new BadDurationException(where, "'" + text + "' is too long; at most about 292 years (2^63 ns)");
        }
        return Duration.ofNanos(whole.longValueExact());
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1;
            case "us" -> NS_PER_US;
            case "ms" -> NS_PER_MS;
            case "s" -> NS_PER_S;
            case "m", "min" -> NS_PER_M;
            case "h" -> NS_PER_H;
            default -> throw new IllegalArgumentException("unit " + unit);
        };
    }

    private static String decimal(long value, int scale) {
        return BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString();
    }
}
