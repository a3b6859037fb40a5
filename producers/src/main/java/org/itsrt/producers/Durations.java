package org.itsrt.producers;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people type them on a command line: {@code 500ms}, {@code 90s}, {@code 5m}, {@code 1h}. */
final class Durations {

    private static final Pattern FORMAT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private Durations() {
    }

    static Duration parse(String text, String option) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + ": not a duration like 500ms, 90s, 5m or 1h: " + text);
        }
        double value = Double.parseDouble(m.group(1));
        double nanos = switch (m.group(2)) {
            case "ms" -> value * 1e6;
            case "s" -> value * 1e9;
            case "m" -> value * 60e9;
            default -> value * 3600e9;
        };
        if (nanos <= 0) {
            throw new IllegalArgumentException(option + " must be positive: " + text);
        }
        return Duration.ofNanos(Math.round(nanos));
    }
}
