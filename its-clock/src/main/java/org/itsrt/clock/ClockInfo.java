package org.itsrt.clock;

import java.util.Locale;

/**
 * What a report says about the clock behind its stamps.
 *
 * @param name            {@code tsc-rdtscp} (x86-64), {@code cntvct} (aarch64) or {@code nanotime}
 * @param frequencyHz     ticks per second of the counter (1e9 for {@code nanotime})
 * @param frequencySource how the frequency was obtained, e.g. {@code cpuid}, {@code cntfrq},
 *                        {@code calibrated against CLOCK_MONOTONIC_RAW}, {@code jvm}
 * @param warning         why the preferred clock is not in use, or empty
 */
public record ClockInfo(String name, double frequencyHz, String frequencySource, String warning) {

    public ClockInfo {
        warning = warning == null ? "" : warning;
    }

    /** One line for logs and reports, e.g. {@code tsc-rdtscp at 2445.432 MHz (cpuid)}. */
    public String describe() {
        String line = String.format(Locale.ROOT, "%s at %.3f MHz (%s)", name, frequencyHz / 1e6, frequencySource);
        return warning.isEmpty() ? line : line + "; " + warning;
    }
}
