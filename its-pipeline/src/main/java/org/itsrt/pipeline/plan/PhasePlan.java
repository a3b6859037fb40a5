package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.util.Arrays;
import org.itsrt.pipeline.sweep.RateSweep;

/**
 * What a run measures on its stack, one phase after the other: one run of the job, the identity
 * floor and then the job, or a rate sweep; each phase profiled or not.
 *
 * @param run     which phases
 * @param sweep   the steps of {@link Run#SWEEP}; null otherwise
 * @param profile every JVM of the run recorded (JDK Flight Recorder, CPU time) from the first record
 *                sent to the last measured, into each phase's {@code profile/}
 */
@JsonDeserialize(builder = PhasePlan.Builder.class)
@JsonPropertyOrder({"run", "sweep", "profile"})
public record PhasePlan(Run run, RateSweep.Plan sweep, boolean profile) {

    public static final PlanField RUN = new PlanField("phases.run", "--with-floor/--sweep");

    /** Which phases a run measures. */
    public enum Run {
        /** The job (or its floor, with {@code job.identity}) once. */
        ONE("one"),
        /** The identity floor, then the job, on the same broker and cluster: compare.md. */
        FLOOR_THEN_JOB("floor-then-job"),
        /** The job at each rate of {@code sweep}, on one broker and cluster: sweep.md. */
        SWEEP("sweep");

        private final String yamlName;

        Run(String yamlName) {
            this.yamlName = yamlName;
        }

        @JsonValue
        public String yamlName() {
            return yamlName;
        }

        @JsonCreator
        public static Run of(String name) {
            return Arrays.stream(values())
                    .filter(r -> r.yamlName.equals(name))
                    .findFirst()
                    .orElseThrow(() -> RUN.refused("must be one of "
                            + Arrays.stream(values()).map(Run::yamlName).toList() + ", got " + name));
        }
    }

    public PhasePlan {
        RUN.require(
                run != null,
                "must be one of "
                        + Arrays.stream(Run.values()).map(Run::yamlName).toList());
        if (run == Run.SWEEP) {
            RateSweep.Plan.RATES.require(sweep != null, "is required for a sweep: the total rates of its steps");
        } else {
            RateSweep.Plan.RATES.require(sweep == null, "goes with run: sweep, not with run: " + run.yamlName);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().run(run).sweep(sweep).profile(profile);
    }

    /** One run, not profiled. */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Run run = Run.ONE;
        private RateSweep.Plan sweep;
        private boolean profile;

        public Builder run(Run which) {
            this.run = which;
            return this;
        }

        public Builder sweep(RateSweep.Plan steps) {
            this.sweep = steps;
            return this;
        }

        public Builder profile(boolean recorded) {
            this.profile = recorded;
            return this;
        }

        public PhasePlan build() {
            return new PhasePlan(run, sweep, profile);
        }
    }
}
