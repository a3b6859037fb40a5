package org.itsrt.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.itsrt.model.Engine;
import org.itsrt.model.FeatureRange;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ModelBundle;
import org.itsrt.model.PredictorOptions;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Next-flow prediction per engine and batch size (docs/inference.md): {@code latency} samples
 * single calls (p50/p99), {@code throughput} counts calls per second. A call predicts
 * {@code batch} windows, encoding included, as the job does. The windows are drawn once from a
 * seeded random source and cycled, so every engine sees the same inputs.
 *
 * <p>{@code engine} is an engine name, for {@code tensorflow} with its thread pools as
 * {@code tensorflow:INTRA/INTER} (0 = TensorFlow's choice), for {@code onnx} with its intra-op
 * threads as {@code onnx:INTRA}, or {@code onnx:INTRA/spin} for threads that spin while idle, so
 * that no run crosses a setting with an engine it does not affect. {@code vectorApi} matters to
 * the kernel only.
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class FlowPrediction {

    /** Distinct windows cycled through: more than a batch, so caches do not learn one input. */
    private static final int WINDOWS = 256;

    static final long SEED = 20180328L;

    @Param("models/lstm-flow")
    public String modelDir;

    @Param({"kernel", "kernel-bf16", "kernel-int8", "tensorflow:1/1", "tensorflow:0/0", "onnx:1", "linear"})
    public String engine;

    @Param({"1", "6", "64"})
    public int batch;

    @Param("true")
    public boolean vectorApi;

    private FlowPredictor predictor;
    private List<List<ReadingWindow>> batches;
    private float[] out;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        predictor = openPredictor(modelDir, engine, vectorApi);
        List<ReadingWindow> windows = randomWindows(predictor.bundle(), new Random(SEED));
        batches = new ArrayList<>();
        for (int first = 0; first + batch <= windows.size(); first += batch) {
            batches.add(List.copyOf(windows.subList(first, first + batch)));
        }
        out = new float[batch];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        predictor.close();
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency(Blackhole blackhole) {
        predictNext(blackhole);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void throughput(Blackhole blackhole) {
        predictNext(blackhole);
    }

    private void predictNext(Blackhole blackhole) {
        List<ReadingWindow> windows = batches.get(next);
        next = next + 1 == batches.size() ? 0 : next + 1;
        if (batch == 1) {
            blackhole.consume(predictor.predict(windows.get(0)));
        } else {
            predictor.predict(windows, out);
            blackhole.consume(out);
        }
    }

    /**
     * The predictor a benchmark measures: {@code engine} is an engine name, for TensorFlow with
     * its thread pools as {@code tensorflow:INTRA/INTER}, for ONNX Runtime as {@code onnx:INTRA}
     * or {@code onnx:INTRA/spin}.
     */
    static FlowPredictor openPredictor(String modelDir, String engine, boolean vectorApi) {
        Path dir = Path.of(modelDir).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no model bundle at " + dir + "; pass -p modelDir=...");
        }
        return FlowPredictors.open(dir, predictorOptions(engine, vectorApi));
    }

    static PredictorOptions predictorOptions(String engineParam, boolean vectorApi) {
        int colon = engineParam.indexOf(':');
        Engine engine = Engine.fromName(colon < 0 ? engineParam : engineParam.substring(0, colon));
        PredictorOptions options =
                PredictorOptions.reference().withEngine(engine).withKernelVectorApi(vectorApi);
        if (colon < 0) {
            return options;
        }
        String[] setting = engineParam.substring(colon + 1).split("/", -1);
        try {
            if (engine == Engine.ONNX && (setting.length == 1 || setting.length == 2 && setting[1].equals("spin"))) {
                return options.withOnnxThreads(Integer.parseInt(setting[0]), setting.length == 2);
            }
            if (engine == Engine.TENSORFLOW && setting.length == 2) {
                return options.withTensorFlowThreads(Integer.parseInt(setting[0]), Integer.parseInt(setting[1]));
            }
        } catch (NumberFormatException notANumber) {
            // Refused below with the forms that are understood.
        }
        throw new IllegalArgumentException("'" + engineParam
                + "' is not ENGINE, tensorflow:INTRA/INTER, onnx:INTRA or onnx:INTRA/spin (thread counts as numbers)");
    }

    /** Flows and speeds within the training range (a tenth of speeds unknown), times in March 2018. */
    static List<ReadingWindow> randomWindows(ModelBundle bundle, Random random) {
        int window = bundle.model().window();
        FeatureRange flow = bundle.scaler().flow();
        FeatureRange speed =
                bundle.scaler().speed() != null ? bundle.scaler().speed() : new FeatureRange(20, 75, Double.NaN);
        long march2018 = Instant.parse("2018-03-01T08:00:00Z").getEpochSecond();
        List<ReadingWindow> windows = new ArrayList<>();
        for (int i = 0; i < WINDOWS; i++) {
            double[] flows = new double[window];
            double[] speeds = new double[window];
            for (int t = 0; t < window; t++) {
                flows[t] = Math.rint(flow.min() + random.nextDouble() * (flow.max() - flow.min()));
                speeds[t] = random.nextInt(10) == 0
                        ? Double.NaN
                        : Math.rint(10 * (speed.min() + random.nextDouble() * (speed.max() - speed.min()))) / 10;
            }
            Instant newest = Instant.ofEpochSecond(march2018 + 300L * random.nextInt(31 * 288));
            windows.add(new ReadingWindow(flows, speeds, newest));
        }
        return windows;
    }
}
