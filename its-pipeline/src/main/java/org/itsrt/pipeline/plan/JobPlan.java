package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job a run submits: the model, whether predict and route are replaced by an identity step
 * (the stack's own floor), and the job's options by name as {@code flink run ... --NAME VALUE}
 * takes them (docs/job.md). The run adds the Kafka ends and the parallelism itself.
 *
 * @param model    the model bundle; null for the shipped one
 * @param identity predict and route replaced by the identity step
 * @param options  job options by name without {@code --}, in the order given, e.g. {@code engine: tensorflow}
 * @param startTimeout how long the job may take from its submission to its first answer: its tasks'
 *                 start, the model's load and its warm-up
 */
@JsonDeserialize(builder = JobPlan.Builder.class)
@JsonPropertyOrder({"model", "identity", "options", "start_timeout"})
public record JobPlan(Path model, boolean identity, Map<String, String> options, Duration startTimeout) {

    public static final PlanField OPTIONS = new PlanField("job.options", "--job-arg");
    public static final PlanField START_TIMEOUT = new PlanField("job.start_timeout", "--job-start-timeout");

    /** Ample on a 2-core host; a cluster in an emulated machine takes minutes (docs/pipeline.md). */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);

    public JobPlan {
        options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options == null ? Map.of() : options));
        startTimeout = startTimeout != null ? startTimeout : DEFAULT_START_TIMEOUT;
        START_TIMEOUT.require(
                !startTimeout.isZero() && !startTimeout.isNegative(), "must be positive, e.g. 120s or 10m");
        for (String name : options.keySet()) {
            OPTIONS.require(
                    !name.isBlank() && !name.startsWith("-"), "takes option names without dashes, got '" + name + "'");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().model(model).identity(identity).options(options).startTimeout(startTimeout);
    }

    /** The shipped model, predicting and routing, with the job's own defaults. */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Path model;
        private boolean identity;
        private Map<String, String> options = Map.of();
        private Duration startTimeout = DEFAULT_START_TIMEOUT;

        public Builder model(Path bundle) {
            this.model = bundle;
            return this;
        }

        public Builder identity(boolean floor) {
            this.identity = floor;
            return this;
        }

        public Builder options(Map<String, String> byName) {
            this.options = byName;
            return this;
        }

        /** One option more, over one of the same name. */
        public Builder option(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(options);
            more.put(name, value);
            this.options = more;
            return this;
        }

        public Builder startTimeout(Duration wait) {
            this.startTimeout = wait;
            return this;
        }

        public JobPlan build() {
            return new JobPlan(model, identity, options, startTimeout);
        }
    }
}
