package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import org.itsrt.cli.options.WorkloadOption;

/**
 * What a run sends and measures ({@code load.workload}, {@code --workload}): the study's six
 * detectors and one stream, or a district's detectors with route requests, two streams measured
 * apart (docs/pipeline.md, "Workloads").
 */
public enum Workload {
    /** The study's detectors: readings -> advice on its.advice. */
    STUDY,
    /**
     * A district ({@link DistrictPlan}): every detector's readings -> predictions on
     * its.predictions, route requests -> answers on its.routes.
     */
    DISTRICT;

    /** The name in a plan file and on the command line. */
    @JsonValue
    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The workload of a name.
     *
     * @throws PlanException naming {@code load.workload} and the names there are
     */
    @JsonCreator
    public static Workload of(String name) {
        for (Workload w : values()) {
            if (w.option().equals(name)) {
                return w;
            }
        }
        throw LoadPlan.WORKLOAD.refused(
                "must be " + WorkloadOption.STUDY + " or " + WorkloadOption.DISTRICT + ", got '" + name + "'");
    }
}
