package org.itsrt.benchmarks;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.ReadingWindow;
import org.itsrt.scheduling.linux.CpuLatencyRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Batch-1 prediction called the way the job calls it: one window, then the thread sleeps until
 * the next record. {@link FlowPrediction} calls back to back, which keeps the model's weights in
 * the caches and the core busy; in the pipeline a subtask predicts about every 17 ms (six
 * detectors at 10 Hz), and between two calls the caches fill with other work and the core idles.
 * {@code pauseUs} is that gap (16667 = 60 records/s); the pause is not timed.
 *
 * <p>Before the first iteration the predictor is called {@code warmupCalls} times back to back,
 * as the job's subtask does when it opens (its {@code --warmup-calls}, default 2,000): at 60
 * calls a second JMH's own warm-up iterations make too few calls for the JIT to compile the
 * kernel, and the paced figures would measure interpreted code instead of the job's.
 */
@State(Scope.Thread)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class PacedPrediction {

    @Param("models/lstm-flow")
    public String modelDir;

    @Param({"kernel", "kernel-bf16", "kernel-int8", "tensorflow:1/1", "onnx:1", "linear"})
    public String engine;

    @Param({"0", "1000", "16667"})
    public long pauseUs;

    @Param("2000")
    public int warmupCalls;

    /**
     * A CPU latency request the trial holds on this host ({@code CpuLatencyRequest}; root): 0
     * keeps the idle core polling through the pause instead of halting, which on a virtual
     * machine hands the core, and its caches, back to the host. {@code none}: the host's default.
     */
    @Param("none")
    public String cpuLatencyUs;

    private CpuLatencyRequest latencyRequest;
    private FlowPredictor predictor;
    private List<ReadingWindow> windows;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        if (!"none".equals(cpuLatencyUs)) {
            latencyRequest = CpuLatencyRequest.hold(Integer.parseInt(cpuLatencyUs));
        }
        predictor = FlowPrediction.openPredictor(modelDir, engine, true);
        windows = FlowPrediction.randomWindows(predictor.bundle(), new Random(FlowPrediction.SEED));
        float sink = 0;
        for (int call = 0; call < warmupCalls; call++) {
            sink += predictor.predict(windows.get(call % windows.size()));
        }
        if (Float.isNaN(sink)) {
            throw new IllegalStateException("the warm-up predicted NaN");
        }
    }

    /** The gap between two records; JMH leaves invocation-level set-up out of the measurement. */
    @Setup(Level.Invocation)
    public void waitForTheNextRecord() {
        if (pauseUs > 0) {
            LockSupport.parkNanos(pauseUs * 1_000);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        predictor.close();
        if (latencyRequest != null) {
            latencyRequest.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency(Blackhole blackhole) {
        blackhole.consume(predictor.predict(windows.get(next)));
        next = next + 1 == windows.size() ? 0 : next + 1;
    }
}
