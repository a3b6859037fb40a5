package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --workload study|district}: what a run sends and measures. The study's six detectors with
 * one stream, reading -> advice; or a district's thousands with two streams measured apart,
 * readings -> predictions and route requests -> answers (docs/pipeline.md, "Workloads"). Every
 * command that runs or measures a workload takes this one option; each reads the name into its own
 * type.
 */
public final class WorkloadOption {

    /** The name of the study's workload, the default. */
    public static final String STUDY = "study";

    /** The name of the district workload. */
    public static final String DISTRICT = "district";

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            description = "study: the six study detectors, one stream, readings -> advice on its.advice; district: "
                    + "a district's detectors and route requests, two streams measured apart, readings -> "
                    + "predictions on its.predictions and requests -> answers on its.routes (default: study)")
    String workload;

    /** The name given, or null when the option was not given. */
    public String given() {
        return workload;
    }

    /** The name given, else {@link #STUDY}. */
    public String name() {
        return workload != null ? workload : STUDY;
    }
}
