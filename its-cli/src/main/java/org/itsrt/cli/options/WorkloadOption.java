package org.itsrt.cli.options;

import org.itsrt.records.Workload;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --workload study|district}: what a run sends and measures. The study's six detectors with
 * one stream, reading -> advice; or a district's thousands with two streams measured apart,
 * readings -> predictions and route requests -> answers (docs/pipeline.md, "Workloads"). Every
 * command that runs or measures a workload takes this one option.
 */
public final class WorkloadOption {

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            converter = ByName.class,
            description = "study: the six study detectors, one stream, readings -> advice on its.advice; district: "
                    + "a district's detectors and route requests, two streams measured apart, readings -> "
                    + "predictions on its.predictions and requests -> answers on its.routes (default: study)")
    Workload workload;

    /** The workload given, or null when the option was not given. */
    public Workload given() {
        return workload;
    }

    /** The workload given, else the study's. */
    public Workload chosen() {
        return workload != null ? workload : Workload.STUDY;
    }

    /** A name read as {@link Workload#of}, refused naming the names there are. */
    static final class ByName implements ITypeConverter<Workload> {
        @Override
        public Workload convert(String name) {
            try {
                return Workload.of(name);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
