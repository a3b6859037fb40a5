package org.itsrt.probe;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What the probe measures: the study's advice, or the district workload's two streams apart. */
public enum Workload {
    /** One topic ({@code its.advice} by default), one stream: reading -> advice. */
    STUDY,
    /**
     * Two streams, each with its own figures: readings -> predictions ({@code its.predictions})
     * and route requests -> answers ({@code its.routes}), and the dead letters of both inputs
     * ({@code its.dead-letters}) counted per stream.
     */
    DISTRICT;

    /** The name on the command line, e.g. {@code district}. */
    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The workload of a command-line name.
     *
     * @throws IllegalArgumentException naming the names there are
     */
    public static Workload of(String name) {
        for (Workload w : values()) {
            if (w.option().equals(name)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "', expected one of "
                + Arrays.stream(values()).map(Workload::option).collect(Collectors.joining(", ")));
    }
}
