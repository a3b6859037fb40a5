package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.itsrt.job.config.JobOptions;
import org.itsrt.job.config.JobSettingsException;

/**
 * The job a run submits: the model, whether predict and route are replaced by an identity step
 * (the stack's own floor), and the job's options (docs/job.md, section 3). In a plan file the
 * options are keys of {@code job:} itself, typed and spelt in snake case ({@code engine:
 * kernel-bf16}, {@code deadline_ms: 50}, {@code consumer.fetch.max.wait.ms: 10}); each is read
 * with the job's own reader when the plan is made, so a bad one is refused before anything starts.
 * The run adds the Kafka ends, the topics and the parallelism itself.
 *
 * @param model    the model bundle; null for the shipped one
 * @param identity predict and route replaced by the identity step
 * @param options  job options by the job's name for them ({@code --NAME VALUE} to {@code flink run}),
 *                 without {@code --}, in the order given, e.g. {@code deadline-ms=50}
 * @param startTimeout how long the job may take from its submission to its first answer: its tasks'
 *                 start, the model's load and its warm-up
 */
@JsonDeserialize(builder = JobPlan.Builder.class)
@JsonPropertyOrder({"model", "identity", "start_timeout"})
public record JobPlan(Path model, boolean identity, @JsonIgnore Map<String, String> options, Duration startTimeout) {

    public static final PlanField MODEL = new PlanField("job.model", "--model");
    public static final PlanField IDENTITY = new PlanField("job.identity", "--identity");
    public static final PlanField START_TIMEOUT = new PlanField("job.start_timeout", "--job-start-timeout");

    /** The job as a whole, where no one option is at fault (the district runs no identity floor). */
    public static final PlanField JOB = new PlanField("job", null);

    /** Ample on a 2-core host; a cluster in an emulated machine takes minutes (docs/pipeline.md). */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);

    /**
     * Job options the run sets from the rest of the plan, with the part of the plan that does: a
     * value here would be overwritten or would break the run's own wiring.
     */
    private static final Map<String, String> SET_BY_THE_RUN = Map.of(
            "bootstrap-servers", "the stack's broker",
            "input-topic", "the run's topics",
            "output-topic", "the run's topics",
            "dead-letter-topic", "the run's topics",
            "predictions-topic", "the run's topics",
            "requests-topic", "the run's topics",
            "routes-topic", "the run's topics",
            "parallelism", "stack.parallelism",
            "workload", "load.workload",
            "graph-meta", "load.district");

    public JobPlan {
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options == null ? Map.of() : options));
        startTimeout = startTimeout != null ? startTimeout : DEFAULT_START_TIMEOUT;
        START_TIMEOUT.require(
                !startTimeout.isZero() && !startTimeout.isNegative(), "must be positive, e.g. 120s or 10m");
        options.forEach(JobPlan::check);
    }

    /** The field of job option {@code name}: its key under {@code job:} and how a command line gives it. */
    public static PlanField field(String name) {
        return switch (name) {
            case "model" -> MODEL;
            case "identity" -> IDENTITY;
            default -> new PlanField("job." + key(name), "--job-arg " + name);
        };
    }

    /**
     * A refusal of the job's settings as a whole (the model bundle, the graph), on the field of the
     * option the job names.
     */
    public static PlanException refused(JobSettingsException e) {
        return e.option() == null || !e.option().startsWith("--")
                ? JOB.refused(": " + e.getMessage())
                : field(e.option().substring(2)).refused(": " + e.problem());
    }

    private static void check(String name, String value) {
        PlanField field = field(name);
        field.require(!name.isBlank() && !name.startsWith("-"), ": takes option names without dashes");
        field.require(
                !name.equals("model") && !name.equals("identity"),
                ": is a field of the job, not one of its options: "
                        + field(name).key());
        String setter = SET_BY_THE_RUN.get(name);
        field.require(setter == null, ": is set by the run from " + setter);
        try {
            JobOptions.read(name, value);
        } catch (JobSettingsException e) {
            throw field.refused(": " + e.problem());
        }
    }

    /** A job option's key under {@code job:}: the option's name in snake case, a Kafka property as it is. */
    static String key(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? name.replace('-', '_') : name;
    }

    /** The job option a key under {@code job:} names. */
    static String name(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? key.replace('_', '-') : key;
    }

    /** The options as a plan file holds them: under their keys, numbers and switches typed. */
    @JsonAnyGetter
    Map<String, Object> optionKeys() {
        Map<String, Object> keys = new LinkedHashMap<>();
        options.forEach((name, value) -> {
            Object read = JobOptions.read(name, value);
            keys.put(key(name), read instanceof Long || read instanceof Boolean ? read : value);
        });
        return keys;
    }

    @Override
    @JsonIgnore
    public Map<String, String> options() {
        return options;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .model(model)
                .identity(identity)
                .optionsByName(options)
                .startTimeout(startTimeout);
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

        /** Every option by the job's name for it; a plan file gives them as keys of {@code job:}. */
        @JsonIgnore
        public Builder optionsByName(Map<String, String> byName) {
            this.options = byName;
            return this;
        }

        /**
         * One option more by the job's name for it, over one of the same name ({@code --job-arg
         * NAME=VALUE}); {@code model} and {@code identity} set those fields.
         */
        public Builder option(String name, String value) {
            switch (name) {
                case "model" -> model(Path.of(value));
                case "identity" -> identity((Boolean) read(name, value));
                default -> {
                    Map<String, String> more = new LinkedHashMap<>(options);
                    more.put(name, value);
                    this.options = more;
                }
            }
            return this;
        }

        /** A key under {@code job:} in a plan file that is none of the job's own fields: a job option. */
        @JsonAnySetter
        void optionKey(String key, Object value) {
            if (key.equals("options") && value instanceof Map<?, ?> old) {
                throw new PlanField("job.options", null)
                        .refused(": job options are keys of job: itself, e.g. job: "
                                + old.entrySet().stream()
                                        .map(e -> key(String.valueOf(e.getKey())) + ": " + e.getValue())
                                        .collect(Collectors.joining(", ", "{", "}")));
            }
            PlanField field = field(name(key));
            field.require(
                    key.indexOf('.') >= 0 || !key.contains("-"),
                    ": a plan spells it " + key.replace('-', '_') + " (keys are snake case)");
            field.require(
                    value == null || value instanceof String || value instanceof Number || value instanceof Boolean,
                    ": expected one value, as --job-arg " + name(key) + "=VALUE takes it");
            field.require(
                    JobOptions.has(name(key)),
                    ": unknown key; neither model, identity, start_timeout nor an option of the job (docs/job.md, "
                            + "section 3 lists them)");
            option(name(key), value == null ? null : String.valueOf(value));
        }

        public Builder startTimeout(Duration wait) {
            this.startTimeout = wait;
            return this;
        }

        public JobPlan build() {
            return new JobPlan(model, identity, options, startTimeout);
        }

        private static Object read(String name, String value) {
            try {
                return JobOptions.read(name, value);
            } catch (JobSettingsException e) {
                throw field(name).refused(": " + e.problem());
            }
        }
    }
}
