package org.itsrt.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import org.itsrt.cli.OneLineErrors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ./its bench --footprint}'s options: each bad one refused in one line before an engine's JVM starts. */
class EngineFootprintOptionsTest {

    private record Refused(int exit, String err) {}

    private static Refused footprint(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = OneLineErrors.install(new CommandLine(new EngineFootprint()));
        cli.setErr(new PrintWriter(err, true));
        return new Refused(cli.execute(args), err.toString());
    }

    @Test
    void aBadCountEngineOrModelIsRefusedInOneLine() {
        String[][] bad = {
            {"--calls", "x", "'--calls': 'x' is not an int"},
            {"--calls", "0", "--calls must be at least 1, got 0"},
            {"--pause-us", "-1", "--pause-us must be 0 or more, got -1"},
            {"tensorflow:2", "ENGINE: 'tensorflow:2' is not ENGINE, tensorflow:INTRA/INTER"},
            {"onnx:1/fast", "ENGINE: 'onnx:1/fast' is not"},
            {"tflite", "ENGINE: unknown engine 'tflite'"},
            {"--model", "/nonexistent-bundle", "--model /nonexistent-bundle: no such model bundle"}
        };
        for (String[] args : bad) {
            String expected = args[args.length - 1];
            String[] given = Arrays.copyOf(args, args.length - 1);
            Refused refused = footprint(given);
            assertThat(refused.exit()).as(expected).isEqualTo(2);
            assertThat(refused.err().lines())
                    .as(expected)
                    .singleElement()
                    .asString()
                    .startsWith("its-bench --footprint: ")
                    .contains(expected);
        }
    }

    @Test
    void theEngineFormsTheBenchmarksTakeAreRead() {
        assertThat(FlowPrediction.predictorOptions("onnx:2/spin", true).onnxSpinning())
                .isTrue();
        assertThat(FlowPrediction.predictorOptions("onnx:2", true).onnxIntraOpThreads())
                .isEqualTo(2);
        assertThat(FlowPrediction.predictorOptions("tensorflow:1/2", true).tensorFlowInterOpThreads())
                .isEqualTo(2);
    }
}
