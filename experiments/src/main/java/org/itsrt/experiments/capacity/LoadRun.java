package org.itsrt.experiments.capacity;

import java.nio.file.Path;
import java.util.List;

/**
 * What one run at one load measured: its exit code and each stream the SLO judges, in order.
 *
 * @param exitCode the pipeline's exit code (0 = every record sent and measured)
 * @param streams  the judged streams: the answers on the requests axis; the predictions, and the answers
 *                 where the plan sends requests, on the detectors axis
 * @param dir      the run's folder (null for a modelled run)
 */
public record LoadRun(int exitCode, List<StreamRun> streams, Path dir) {

    public LoadRun {
        streams = List.copyOf(streams);
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("a run judges at least one stream");
        }
    }
}
