package org.itsrt.job.functions;

import java.time.Instant;
import org.itsrt.predict.FlowPredictor;
import org.itsrt.predict.ReadingWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a freshly opened predictor on made-up windows before the subtask takes records. The
 * first thousand calls of the JVM kernel run interpreted or half-compiled (up to a second for
 * the first one); on a latency path that cost would land on the first records of the run,
 * where it says nothing about the job. The windows vary, so no branch is compiled for one value.
 */
final class PredictorWarmup {

    private static final Logger LOG = LoggerFactory.getLogger(PredictorWarmup.class);

    private PredictorWarmup() {}

    static void run(FlowPredictor predictor, int calls) {
        if (calls <= 0) {
            return;
        }
        long start = System.nanoTime();
        int window = predictor.bundle().model().window();
        double[] flows = new double[window];
        double[] speeds = new double[window];
        Instant newest = Instant.parse("2018-03-01T16:00:00Z");
        float sink = 0;
        for (int call = 0; call < calls; call++) {
            for (int i = 0; i < window; i++) {
                flows[i] = 100 + (call * 7 + i * 13) % 300;
                speeds[i] = 30 + (call + i * 3) % 40;
            }
            sink += predictor.predict(
                    new ReadingWindow(flows.clone(), speeds.clone(), newest.plusSeconds(300L * call)));
        }
        LOG.info(
                "predictor warmed up with {} calls in {} ms (checksum {})",
                calls,
                (System.nanoTime() - start) / 1_000_000,
                sink);
    }
}
