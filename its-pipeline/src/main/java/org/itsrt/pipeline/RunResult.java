package org.itsrt.pipeline;

import java.nio.file.Path;
import java.util.Map;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.producers.send.ProducerSummary;

/**
 * What one measured run gave.
 *
 * @param dir         the run's folder: summary.md, probe/, producer.md and producer.json
 * @param identity    whether the job ran with predict and route replaced by the identity step (the floor)
 * @param exitCode    0 when every record was sent, acknowledged and measured; 1 when a part failed; 130 when
 *                    the run was interrupted (what was measured is still in the summaries)
 * @param probe       the probe's summary (its {@code summary.json})
 * @param producers   the producers' summary
 * @param probe       the probe's summary (its {@code summary.json}); of the district workload, its
 *                    readings -> predictions stream
 * @param producers   the producers' summary; of the district workload, its readings'
 * @param deadLetters the job's dead letters by reason during this run, the readiness handshake left out;
 *                    null when they could not be counted (an interrupted run)
 * @param requests    the district workload's second stream, route requests -> answers; null for the study
 */
public record RunResult(
        Path dir,
        boolean identity,
        int exitCode,
        ProbeSummary probe,
        ProducerSummary producers,
        Map<String, Long> deadLetters,
        Requests requests) {

    /**
     * The district workload's route requests: what the probe measured of their answers and what the
     * producers sent.
     */
    public record Requests(ProbeSummary answers, ProducerSummary sent) {}

    /** The study's result: one stream. */
    public RunResult(
            Path dir,
            boolean identity,
            int exitCode,
            ProbeSummary probe,
            ProducerSummary producers,
            Map<String, Long> deadLetters) {
        this(dir, identity, exitCode, probe, producers, deadLetters, null);
    }

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int INTERRUPTED = 130;

    /** Dead letters other than the handshake; -1 when they were not counted. */
    public long deadLettered() {
        return deadLetters == null
                ? -1
                : deadLetters.values().stream().mapToLong(Long::longValue).sum();
    }
}
