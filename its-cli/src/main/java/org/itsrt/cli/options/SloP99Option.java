package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --slo-p99 MS}: the p99 a search's run must meet, shared by the searches (tune, capacity),
 * each with its own default.
 */
public final class SloP99Option {

    @Option(
            names = "--slo-p99",
            paramLabel = "MS",
            description = "a run meets the SLO when its p99 is at most this (tune: the steady-state p99 of readings -> "
                    + "advice, default the file's slo.p99_ms; capacity: each stream it judges, default 50)")
    Double sloP99;

    /** The target given, or null for the search's default. */
    public Double given() {
        return sloP99;
    }
}
