package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --requests R}: route requests per second, all request streams together, sent open loop
 * beside a district's readings (docs/producers.md, "Route requests").
 */
public final class RequestsOption {

    @Option(
            names = "--requests",
            paramLabel = "R",
            description = "route requests per second in all, open loop, drawn from the district's demand model "
                    + "(--workload district; 0: none, the readings alone)")
    Double perSecond;

    /** The rate given, or null when the option was not given. */
    public Double given() {
        return perSecond;
    }
}
