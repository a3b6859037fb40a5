package org.itsrt.job.functions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.ReadingWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a freshly opened predictor on made-up windows before the subtask takes records. The
 * first calls of the JVM kernel run interpreted or C1-compiled (the very first up to a second);
 * on a latency path that cost would land on the first records of the run, where it says nothing
 * about the job. The windows vary, so no branch is compiled for one value.
 *
 * <p>How many calls that takes (docs/inference.md, "Warming up"): on the 2-core machine, busy,
 * the median of a block of 100 batch-1 calls came within 10 % of its final level after about 200
 * calls for {@code kernel-bf16} and {@code kernel-int8} and about 600 for {@code kernel}: the time
 * C2 takes to compile the kernel's loops while the calls go on. The default of 2,000 calls leaves
 * room for a busier machine; the log line says where the curve settled, and warns when that was in
 * the second half of the warm-up, i.e. when the warm-up may have ended before the JIT did.
 *
 * <p>Every eighth call predicts a batch of {@link #BATCH} windows instead of one: batch 1 runs
 * only the kernel's one-row and six-row loops, a batch of five also its four-row loop, which
 * {@link PredictFlowBatched} reaches at run time.
 */
final class PredictorWarmup {

    /** Calls per block of the timing curve. */
    static final int BLOCK = 100;

    /** The batch size of every eighth warm-up call. */
    static final int BATCH = 5;

    private static final Logger LOG = LoggerFactory.getLogger(PredictorWarmup.class);

    private PredictorWarmup() {}

    /**
     * What a warm-up measured: medians of the first and last block of batch-1 calls (µs), and the
     * number of calls after which the block medians stayed within 10 % of the last one.
     */
    record Result(int calls, long millis, double firstBlockMedianUs, double lastBlockMedianUs, int settledAfter) {

        /** Whether the curve settled only in the second half: the warm-up may have been too short. */
        boolean settledLate() {
            return settledAfter > calls / 2;
        }
    }

    static Result run(FlowPredictor predictor, int calls) {
        if (calls <= 0) {
            return null;
        }
        long start = System.nanoTime();
        int window = predictor.bundle().model().window();
        Instant newest = Instant.parse("2018-03-01T16:00:00Z");
        List<ReadingWindow> batch = new ArrayList<>(BATCH);
        float[] batchOut = new float[BATCH];
        long[] singleNanos = new long[calls];
        int singles = 0;
        float sink = 0;
        for (int call = 0; call < calls; call++) {
            if (call % 8 == 7) {
                batch.clear();
                for (int n = 0; n < BATCH; n++) {
                    batch.add(madeUp(window, call + n, newest));
                }
                predictor.predict(batch, batchOut);
                sink += batchOut[0];
                continue;
            }
            ReadingWindow input = madeUp(window, call, newest);
            long before = System.nanoTime();
            sink += predictor.predict(input);
            singleNanos[singles++] = System.nanoTime() - before;
        }
        Result result = curve(Arrays.copyOf(singleNanos, singles), calls, (System.nanoTime() - start) / 1_000_000);
        LOG.info(
                "predictor warmed up with {} calls in {} ms: batch-1 median {} us over the first {} calls, "
                        + "{} us over the last {}, within 10% of that from call {} on (checksum {})",
                calls,
                result.millis(),
                Math.round(result.firstBlockMedianUs()),
                BLOCK,
                Math.round(result.lastBlockMedianUs()),
                BLOCK,
                result.settledAfter(),
                sink);
        if (result.settledLate()) {
            LOG.warn(
                    "the predictor's warm-up settled only after {} of {} calls: the JIT may not have finished; "
                            + "raise --warmup-calls",
                    result.settledAfter(),
                    calls);
        }
        return result;
    }

    /** The timing curve of the batch-1 calls, {@code calls} warm-up calls in all. */
    static Result curve(long[] singleNanos, int calls, long millis) {
        int blocks = Math.max(1, singleNanos.length / BLOCK);
        int blockLength = Math.min(BLOCK, singleNanos.length);
        double[] medians = new double[blocks];
        for (int b = 0; b < blocks; b++) {
            long[] block = Arrays.copyOfRange(singleNanos, b * blockLength, (b + 1) * blockLength);
            Arrays.sort(block);
            medians[b] = block.length == 0 ? Double.NaN : block[block.length / 2] / 1_000.0;
        }
        double last = medians[blocks - 1];
        int settledBlock = blocks - 1;
        while (settledBlock > 0 && medians[settledBlock - 1] <= 1.1 * last) {
            settledBlock--;
        }
        // Block b's batch-1 calls end near warm-up call (b + 1) * blockLength * 8 / 7.
        int settledAfter = (int) Math.min(calls, Math.round(settledBlock * blockLength * 8.0 / 7));
        return new Result(calls, millis, medians[0], last, settledAfter);
    }

    private static ReadingWindow madeUp(int window, int call, Instant newest) {
        double[] flows = new double[window];
        double[] speeds = new double[window];
        for (int i = 0; i < window; i++) {
            flows[i] = 100 + (call * 7 + i * 13) % 300;
            speeds[i] = 30 + (call + i * 3) % 40;
        }
        return new ReadingWindow(flows, speeds, newest.plusSeconds(300L * call));
    }
}
