package org.itsrt.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictorFactory;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ReadingWindow;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Two subtasks of one TaskManager predicting at once (two threads, batch 1, back to back): each
 * with a model of its own ({@code per-subtask}, what the job does: every subtask opens the
 * bundle) or both from one loaded model ({@code shared}: one ONNX Runtime session, or one
 * TensorFlow session, or one set of kernel weights, run from both threads). Sharing saves the
 * second copy of the weights; the question is what it costs the calls.
 */
@State(Scope.Benchmark)
@Threads(2)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class SessionSharing {

    @Param("models/lstm-flow")
    public String modelDir;

    @Param({"onnx:1", "kernel-bf16", "tensorflow:1/1"})
    public String engine;

    @Param({"per-subtask", "shared"})
    public String sessions;

    private FlowPredictorFactory shared;

    @Setup(Level.Trial)
    public void openShared() {
        if (sessions.equals("shared")) {
            shared = FlowPredictors.factory(
                    Path.of(modelDir).toAbsolutePath(), FlowPrediction.predictorOptions(engine, true));
        } else if (!sessions.equals("per-subtask")) {
            throw new IllegalArgumentException("sessions must be per-subtask or shared: " + sessions);
        }
    }

    @TearDown(Level.Trial)
    public void closeShared() {
        if (shared != null) {
            shared.close();
        }
    }

    /** One subtask: its predictor and its windows. */
    @State(Scope.Thread)
    public static class Subtask {
        FlowPredictor predictor;
        List<ReadingWindow> windows;
        int next;

        @Setup(Level.Trial)
        public void open(SessionSharing benchmark) {
            predictor = benchmark.shared != null
                    ? benchmark.shared.newPredictor()
                    : FlowPrediction.openPredictor(benchmark.modelDir, benchmark.engine, true);
            windows = FlowPrediction.randomWindows(predictor.bundle(), new Random(FlowPrediction.SEED));
        }

        @TearDown(Level.Trial)
        public void close() {
            predictor.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency(Subtask subtask, Blackhole blackhole) {
        blackhole.consume(subtask.predictor.predict(subtask.windows.get(subtask.next)));
        subtask.next = subtask.next + 1 == subtask.windows.size() ? 0 : subtask.next + 1;
    }
}
