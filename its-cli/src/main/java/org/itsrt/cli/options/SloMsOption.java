package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --slo-ms MS}: the SLO a window's p95 is held to, for the SLO-violation ratio. */
public final class SloMsOption {

    /** The per-record bound of the targets: max <= 20 ms. */
    public static final double DEFAULT_MS = 20;

    @Option(
            names = "--slo-ms",
            paramLabel = "MS",
            description = "SLO for a window's p95, in ms (default: 20, the per-record bound of the targets)")
    Double sloMs;

    /** The SLO given, or null. */
    public Double given() {
        return sloMs;
    }

    /** The SLO given, else 20 ms. */
    public double ms() {
        return sloMs != null ? sloMs : DEFAULT_MS;
    }

    /** What is wrong with the SLO, naming the option; null when nothing is. */
    public String problem() {
        return ms() > 0 && !Double.isInfinite(ms()) ? null : "--slo-ms must be a number > 0, got " + ms();
    }
}
