package org.itsrt.pipeline;

import java.io.PrintStream;
import org.itsrt.kafka.KafkaClientConfig;

/**
 * Runs one measured pipeline: starts the stack a {@link RunSpec} names (or reaches the one that
 * already runs), submits the job, applies the budget once the job is live, replays the load,
 * measures every record end to end, and stops what it started. {@code ./its demo}, {@code ./its
 * experiment} and {@code ./its tune} are commands over it.
 *
 * <pre>
 * RunResult result = new PipelineRun(System.err).run(spec);
 * result.probe().latency().fromIntended().all().p99Ms();
 * </pre>
 *
 * For several runs on one stack (the floor, then the job), use {@link RunningStack} directly.
 */
public final class PipelineRun {

    /** The cluster's temporary files inside a run's folder, removed at the end. */
    public static final String FLINK_TMP = "flink-tmp";

    private final PrintStream log;
    private volatile RunningStack stack;
    private volatile boolean stopped;

    /** @param log where progress lines go (records sent and received, ETA) */
    public PipelineRun(PrintStream log) {
        this.log = log;
    }

    /**
     * The job's settings a run submits: the spec's options with the stack's Kafka ends and the
     * parallelism; fails naming the option (and file) that cannot be used.
     */
    public static org.itsrt.job.config.JobSettings jobSettings(JobSpec job, String bootstrapServers, int parallelism) {
        return Measurement.jobSettings(job, bootstrapServers, parallelism, KafkaClientConfig.none());
    }

    public RunResult run(RunSpec spec) throws Exception {
        try (RunningStack running = RunningStack.start(spec.stack(), spec.out().resolve(FLINK_TMP), log)) {
            stack = running;
            if (stopped) {
                running.stop();
            }
            return running.measure(spec.load(), spec.job(), spec.budget(), spec.out());
        } finally {
            stack = null;
        }
    }

    /** Stops the run from another thread (Ctrl-C); {@link #run} returns what was measured, exit code 130. */
    public void stop() {
        stopped = true;
        RunningStack running = stack;
        if (running != null) {
            running.stop();
        }
    }
}
