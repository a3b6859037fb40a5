package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelBundleTest {

    @TempDir
    Path temp;

    @Test
    void readsTheTinyFeatureBundle() {
        ModelBundle bundle = ModelBundle.load(TestBundles.dir(TestBundles.TINY_FEATURES));

        ModelSpec model = bundle.model();
        assertThat(model.name()).isEqualTo("tiny-features");
        assertThat(model.window()).isEqualTo(12);
        assertThat(model.intervalSeconds()).isEqualTo(300);
        assertThat(model.features()).containsExactly(Feature.FLOW, Feature.SPEED, Feature.TOD_SIN, Feature.TOD_COS);
        assertThat(model.inputWidth()).isEqualTo(48);
        assertThat(model.timezone()).isEqualTo(ZoneId.of("America/Los_Angeles"));
        assertThat(model.layers())
                .extracting(LayerSpec::name)
                .containsExactly("lstm_1", "lstm_2", "dense_1", "flow_next");
        assertThat(model.layers().get(0)).isEqualTo(new LayerSpec("lstm_1", LayerSpec.Type.LSTM, 16, "tanh", true));
        assertThat(model.layers().get(1).returnSequences()).isFalse();
        assertThat(model.signature()).isEqualTo(new ModelSpec.Signature("serve", "flows", "flow_next"));
        assertThat(model.onnx()).isEqualTo(new ModelSpec.OnnxGraph("model.onnx", "flows", "flow_next"));

        assertThat(bundle.scaler().flow()).isEqualTo(new FeatureRange(83.0, 409.0, Double.NaN));
        assertThat(bundle.scaler().speed()).isEqualTo(new FeatureRange(49.7, 72.4, 67.7));
        assertThat(bundle.linear().coefficients()).hasSize(48);
        assertThat(bundle.linear().coefficients()[0]).isEqualTo(-0.023252001032233238);
        assertThat(bundle.linear().intercept()).isEqualTo(-0.013211488723754883);
        assertThat(bundle.savedModel()).isDirectory();
        assertThat(bundle.onnxFile()).isRegularFile();
    }

    @Test
    void aFlowOnlyBundleNeedsNoSpeedRange() {
        ModelBundle bundle = ModelBundle.load(TestBundles.dir(TestBundles.TINY_FLOW));

        assertThat(bundle.model().features()).containsExactly(Feature.FLOW);
        assertThat(bundle.scaler().speed()).isNull();
    }

    @Test
    void aMissingScalerIsNamed() throws IOException {
        Path dir = copyOfTinyFeatures();
        Files.delete(dir.resolve("scaler.json"));

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(dir.resolve("scaler.json") + ": missing")
                .satisfies(e -> assertThat(((ModelBundleException) e).file()).isEqualTo(dir.resolve("scaler.json")));
    }

    @Test
    void aModelJsonThatIsNotJsonIsNamed() throws IOException {
        Path dir = copyOfTinyFeatures();
        Files.writeString(dir.resolve("model.json"), "{\"format\": 1, \"name\": ");

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(dir.resolve("model.json") + ": not valid JSON")
                .hasMessageContaining("line 1");
    }

    @Test
    void anUnknownFormatIsRefused() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("model.json"), "\"format\": 1", "\"format\": 2");

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(dir.resolve("model.json") + ": format: bundle format 2 is not supported");
    }

    @Test
    void aMissingOrWrongFieldIsNamedWithItsFile() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("model.json"), "\"window\": 12,", "");
        assertThatThrownBy(() -> ModelBundle.load(dir)).hasMessage(dir.resolve("model.json") + ": window: missing");

        Path other = copyOfTinyFeatures();
        edit(other.resolve("model.json"), "\"units\": 16", "\"units\": \"sixteen\"");
        assertThatThrownBy(() -> ModelBundle.load(other))
                .hasMessage(other.resolve("model.json") + ": layers[0].units: expected a positive integer, "
                        + "found \"sixteen\"");
    }

    @Test
    void anUnknownFeatureIsNamed() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("model.json"), "\"tod_sin\"", "\"weekday\"");

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessage(dir.resolve("model.json")
                        + ": unknown feature 'weekday'; known: flow, speed, tod_sin, tod_cos");
    }

    @Test
    void aSpeedModelNeedsTheSpeedFill() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("scaler.json"), ",\n    \"fill\": 67.7", "");

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessage(dir.resolve("scaler.json") + ": speed.fill: missing");
    }

    @Test
    void linearCoefficientsMustCoverTheWindow() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("linear.json"), "-0.023252001032233238,", "");

        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessage(dir.resolve("linear.json") + ": coefficients: expected 48 numbers (window 12 x 4 "
                        + "features), found 47");
    }

    @Test
    void aMissingSavedModelIsNamedByTheEnginesThatNeedIt() throws IOException {
        Path dir = copyOfTinyFeatures();
        try (Stream<Path> files = Files.walk(dir.resolve("saved_model"))) {
            for (Path file : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.delete(file);
            }
        }

        ModelBundle bundle = ModelBundle.load(dir);
        assertThatThrownBy(bundle::savedModel)
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(dir.resolve("saved_model") + ": missing");
        for (Engine engine : List.of(Engine.KERNEL, Engine.TENSORFLOW)) {
            assertThatThrownBy(() -> FlowPredictors.open(
                            dir, PredictorOptions.reference().withEngine(engine)))
                    .isInstanceOf(ModelBundleException.class)
                    .hasMessageStartingWith(dir.resolve("saved_model") + ": missing");
        }
        try (FlowPredictor linear =
                FlowPredictors.open(dir, PredictorOptions.reference().withEngine(Engine.LINEAR))) {
            assertThat(linear.engine()).isEqualTo(Engine.LINEAR);
        }
    }

    @Test
    void aCorruptSavedModelIsNamedByTheEnginesThatNeedIt() throws IOException {
        Path dir = copyOfTinyFeatures();
        Files.writeString(dir.resolve("saved_model/saved_model.pb"), "not a protocol buffer");

        for (Engine engine : List.of(Engine.KERNEL, Engine.TENSORFLOW)) {
            assertThatThrownBy(() -> FlowPredictors.open(
                            dir, PredictorOptions.reference().withEngine(engine)))
                    .as("engine %s", engine)
                    .isInstanceOf(ModelBundleException.class)
                    .hasMessageStartingWith(dir.resolve("saved_model") + ": TensorFlow cannot load it as a SavedModel");
        }
    }

    @Test
    void aSavedModelForAnotherWindowIsRefusedByTheEnginesThatRunIt() throws IOException {
        Path dir = copyOfTinyFeatures();
        // model.json and linear.json agree on a 6-step window; the SavedModel was trained on 12.
        edit(dir.resolve("model.json"), "\"window\": 12", "\"window\": 6");
        ObjectMapper json = new ObjectMapper();
        ObjectNode linear =
                (ObjectNode) json.readTree(dir.resolve("linear.json").toFile());
        linear.put("window", 6);
        ArrayNode coefficients = (ArrayNode) linear.get("coefficients");
        while (coefficients.size() > 6 * 4) {
            coefficients.remove(coefficients.size() - 1);
        }
        json.writeValue(dir.resolve("linear.json").toFile(), linear);

        for (Engine engine : List.of(Engine.KERNEL, Engine.TENSORFLOW)) {
            assertThatThrownBy(() -> FlowPredictors.open(
                            dir, PredictorOptions.reference().withEngine(engine)))
                    .as("engine %s", engine)
                    .isInstanceOf(ModelBundleException.class)
                    .hasMessageStartingWith(dir.resolve("saved_model") + ": signature 'serve' input 'flows' has shape")
                    .hasMessageContaining("model.json expects [batch, window 6, 4 features");
        }
    }

    @Test
    void aSignatureOrInputThatModelJsonDoesNotNameIsRefused() throws IOException {
        Path noSignature = copyOfTinyFeatures();
        edit(noSignature.resolve("model.json"), "\"name\": \"serve\"", "\"name\": \"predict\"");
        Path noInput = copyOfTinyFeatures();
        edit(noInput.resolve("model.json"), "\"input\": \"flows\"", "\"input\": \"readings\"");

        for (Engine engine : List.of(Engine.KERNEL, Engine.TENSORFLOW)) {
            assertThatThrownBy(() -> FlowPredictors.open(
                            noSignature, PredictorOptions.reference().withEngine(engine)))
                    .isInstanceOf(ModelBundleException.class)
                    .hasMessageStartingWith(noSignature.resolve("saved_model") + ": has no signature 'predict'");
            assertThatThrownBy(() -> FlowPredictors.open(
                            noInput, PredictorOptions.reference().withEngine(engine)))
                    .isInstanceOf(ModelBundleException.class)
                    .hasMessageStartingWith(noInput.resolve("saved_model") + ": signature 'serve' has inputs")
                    .hasMessageContaining("model.json expects input 'readings'");
        }
    }

    @Test
    void aMissingOrCorruptOnnxGraphIsNamedByTheOnnxEngine() throws IOException {
        Path missing = copyOfTinyFeatures();
        Files.delete(missing.resolve("model.onnx"));
        assertThatThrownBy(() -> FlowPredictors.open(missing, onnx()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(missing.resolve("model.onnx") + ": missing; model.json's onnx.file names it");

        Path corrupt = copyOfTinyFeatures();
        Files.writeString(corrupt.resolve("model.onnx"), "not a protocol buffer");
        assertThatThrownBy(() -> FlowPredictors.open(corrupt, onnx()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(corrupt.resolve("model.onnx") + ": ONNX Runtime cannot load it: ");

        Path unnamed = copyOfTinyFeatures();
        ObjectMapper json = new ObjectMapper();
        ObjectNode model =
                (ObjectNode) json.readTree(unnamed.resolve("model.json").toFile());
        model.remove("onnx");
        json.writeValue(unnamed.resolve("model.json").toFile(), model);
        assertThatThrownBy(() -> FlowPredictors.open(unnamed, onnx()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(unnamed.resolve("model.json") + ": onnx: missing; the onnx engine runs");
        // The graph is the onnx engine's alone: the others open the bundle without it.
        try (FlowPredictor kernel = FlowPredictors.open(missing, PredictorOptions.reference())) {
            assertThat(kernel.engine()).isEqualTo(Engine.KERNEL);
        }
    }

    @Test
    void anOnnxGraphOfAnotherShapeIsRefusedNamingTheShapeExpected() throws IOException {
        // tiny-features' graph takes 4 features per reading; tiny-flow's model.json describes one.
        Path dir = copyOf(TestBundles.TINY_FLOW);
        Files.copy(
                TestBundles.dir(TestBundles.TINY_FEATURES).resolve("model.onnx"),
                dir.resolve("model.onnx"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThatThrownBy(() -> FlowPredictors.open(dir, onnx()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(dir.resolve("model.onnx") + ": input 'flows' has shape [free, 12, 4] of FLOAT; "
                        + "model.json expects [batch, window 12, 1 features [flow]] of float32, batch free");

        Path renamed = copyOfTinyFeatures();
        edit(
                renamed.resolve("model.json"),
                "\"model.onnx\",\n    \"input\": \"flows\"",
                "\"model.onnx\",\n    \"input\": \"readings\"");
        assertThatThrownBy(() -> FlowPredictors.open(renamed, onnx()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(renamed.resolve("model.onnx") + ": has inputs [flows]; model.json's "
                        + "onnx.input names 'readings'");
    }

    @Test
    void aGruBundleIsRefusedByTheKernelNamingTheLayer() throws IOException {
        Path dir = copyOfTinyFeatures();
        edit(dir.resolve("model.json"), "\"type\": \"lstm\"", "\"type\": \"gru\"");

        assertThat(ModelBundle.load(dir).model().layers().get(0).type()).isEqualTo(LayerSpec.Type.GRU);
        assertThatThrownBy(() -> FlowPredictors.open(dir, PredictorOptions.reference()))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(dir.resolve("model.json") + ": layer 'lstm_1': a gru layer; the kernel engines run lstm "
                        + "and dense layers (engine onnx or tensorflow runs this model)");
    }

    private static PredictorOptions onnx() {
        return PredictorOptions.reference().withEngine(Engine.ONNX);
    }

    @Test
    void aScalerWithoutAKeyOrWithMinNotBelowMaxIsNamed() throws IOException {
        Path noMax = copyOfTinyFeatures();
        edit(noMax.resolve("scaler.json"), ",\n    \"max\": 409.0", "");
        assertThatThrownBy(() -> ModelBundle.load(noMax))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(noMax.resolve("scaler.json") + ": flow.max: missing");

        Path noFlow = copyOfTinyFeatures();
        edit(noFlow.resolve("scaler.json"), "\"flow\"", "\"flows\"");
        assertThatThrownBy(() -> ModelBundle.load(noFlow))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(noFlow.resolve("scaler.json") + ": flow: missing");

        Path equal = copyOfTinyFeatures();
        edit(equal.resolve("scaler.json"), "\"max\": 409.0", "\"max\": 83.0");
        assertThatThrownBy(() -> ModelBundle.load(equal))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(equal.resolve("scaler.json") + ": flow: max must exceed min, found min 83.0 and max 83.0");

        Path inverted = copyOfTinyFeatures();
        edit(inverted.resolve("scaler.json"), "\"min\": 49.7", "\"min\": 80.0");
        assertThatThrownBy(() -> ModelBundle.load(inverted))
                .isInstanceOf(ModelBundleException.class)
                .hasMessage(
                        inverted.resolve("scaler.json") + ": speed: max must exceed min, found min 80.0 and max 72.4");
    }

    @Test
    void aBundleThatIsNotAFolderIsNamed() {
        Path nowhere = temp.resolve("no-such-bundle");

        assertThatThrownBy(() -> ModelBundle.load(nowhere))
                .isInstanceOf(ModelBundleException.class)
                .hasMessageStartingWith(nowhere + ": not a directory");
    }

    private Path copyOfTinyFeatures() throws IOException {
        return copyOf(TestBundles.TINY_FEATURES);
    }

    private Path copyOf(String bundle) throws IOException {
        Path source = TestBundles.dir(bundle);
        Path target = Files.createTempDirectory(temp, "bundle");
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return target;
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).as("%s holds %s", file, from).contains(from);
        Files.writeString(file, text.replace(from, to));
    }
}
