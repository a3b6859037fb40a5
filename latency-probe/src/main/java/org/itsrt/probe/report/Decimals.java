package org.itsrt.probe.report;

import java.util.Locale;

/** Number formats of the report files: exact fixed-point from integers, and rounded display values. */
public final class Decimals {

    private static final long[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

    private Decimals() {}

    /**
     * {@code value / 10^scale} written out exactly, e.g. {@code fixed(2_103_456, 6)} is
     * {@code 2.103456}: nanoseconds as milliseconds without a detour through floating point.
     */
    public static String fixed(long value, int scale) {
        long unit = POW10[scale];
        StringBuilder text = new StringBuilder(24);
        if (value < 0) {
            text.append('-');
        }
        long whole = Math.abs(value / unit);
        long fraction = Math.abs(value % unit);
        text.append(whole);
        if (scale > 0) {
            text.append('.');
            String digits = Long.toString(fraction);
            for (int i = digits.length(); i < scale; i++) {
                text.append('0');
            }
            text.append(digits);
        }
        return text.toString();
    }

    /** Nanoseconds as milliseconds with {@code decimals} decimals (rounded), "-" for NaN. */
    public static String ms(double ns, int decimals) {
        return Double.isNaN(ns) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", ns / 1e6);
    }

    /** A share as a percentage with two decimals, "-" for NaN. */
    public static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * share);
    }

    /** Seconds, short: {@code 1 s}, {@code 0.5 s}, {@code 120 s}. */
    public static String seconds(long ns) {
        double s = ns / 1e9;
        return s == Math.rint(s)
                ? String.format(Locale.ROOT, "%.0f s", s)
                : String.format(Locale.ROOT, "%s s", trim(s));
    }

    /** Milliseconds, short: {@code 20 ms}, {@code 6.5 ms}. */
    public static String millis(long ns) {
        double ms = ns / 1e6;
        return ms == Math.rint(ms)
                ? String.format(Locale.ROOT, "%.0f ms", ms)
                : String.format(Locale.ROOT, "%s ms", trim(ms));
    }

    private static String trim(double value) {
        String text = String.format(Locale.ROOT, "%.6f", value);
        text = text.replaceAll("0+$", "");
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }
}
