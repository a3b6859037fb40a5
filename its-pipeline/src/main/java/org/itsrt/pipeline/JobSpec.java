package org.itsrt.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job a run submits: the model, whether predict and route are replaced by an identity step
 * (the stack's own floor), and the job's other options by name, as {@code flink run ... --NAME
 * VALUE} takes them (docs/job.md). The run adds the Kafka ends and the parallelism itself.
 *
 * @param model    the model bundle; made absolute, since a cluster in another process opens it from its own folder
 * @param options  job options by name without {@code --}, e.g. {@code engine=tensorflow}
 * @param startTimeout how long the job may take from its submission to its first answer
 */
public record JobSpec(Path model, boolean identity, Map<String, String> options, Duration startTimeout) {

    public JobSpec {
        model = model == null ? null : model.toAbsolutePath();
        options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
        startTimeout = startTimeout != null ? startTimeout : org.itsrt.pipeline.plan.JobPlan.DEFAULT_START_TIMEOUT;
    }

    /** The job with the default wait for its first answer. */
    public JobSpec(Path model, boolean identity, Map<String, String> options) {
        this(model, identity, options, null);
    }

    /** The same job with predict and route replaced by the identity step. */
    public JobSpec asIdentity() {
        return new JobSpec(model, true, options, startTimeout);
    }

    /** The same job, predicting and routing. */
    public JobSpec asFullJob() {
        return new JobSpec(model, false, options, startTimeout);
    }
}
