package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.nio.file.Path;

/**
 * Where a run's reports go.
 *
 * @param dir the run folder; null for {@code results/demo/YYYYMMDD-HHMMSS} (UTC) where the run starts
 */
@JsonDeserialize(builder = OutputPlan.Builder.class)
public record OutputPlan(Path dir) {

    public static final PlanField DIR = new PlanField("output.dir", "--out");

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().dir(dir);
    }

    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Path dir;

        public Builder dir(Path folder) {
            this.dir = folder;
            return this;
        }

        public OutputPlan build() {
            return new OutputPlan(dir);
        }
    }
}
