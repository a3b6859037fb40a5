package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EngineTest {

    @Test
    void namesReadBackToTheirEngine() {
        assertThat(Engine.fromName("kernel")).isEqualTo(Engine.KERNEL);
        assertThat(Engine.fromName("tensorflow")).isEqualTo(Engine.TENSORFLOW);
        assertThat(Engine.fromName(" Linear ")).isEqualTo(Engine.LINEAR);
        assertThat(Engine.fromName("kernel-bf16")).isEqualTo(Engine.KERNEL_BF16);
        assertThat(Engine.fromName("KERNEL-INT8")).isEqualTo(Engine.KERNEL_INT8);
        assertThat(Engine.fromName("onnx")).isEqualTo(Engine.ONNX);
        assertThat(Engine.ONNX.isKernel()).isFalse();
        assertThat(Engine.KERNEL_INT8.isKernel()).isTrue();
        assertThat(Engine.TENSORFLOW.isKernel()).isFalse();
        for (Engine engine : Engine.values()) {
            assertThat(Engine.fromName(engine.toString())).isEqualTo(engine);
        }
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Engine.fromName("tflite"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'tflite'")
                .hasMessageContaining("valid engines: kernel, tensorflow, linear, kernel-bf16, kernel-int8, onnx");
    }

    @Test
    void optionsStartFromTheDefaultsAndChangeOneThingAtATime() {
        PredictorOptions defaults = PredictorOptions.reference();
        assertThat(defaults.engine()).isEqualTo(Engine.REFERENCE).isEqualTo(Engine.KERNEL);
        assertThat(Engine.DEFAULT).isEqualTo(Engine.KERNEL_BF16);
        assertThat(defaults.tensorFlowIntraOpThreads()).isEqualTo(1);
        assertThat(defaults.tensorFlowInterOpThreads()).isEqualTo(1);
        assertThat(defaults.kernelVectorApi()).isTrue();
        assertThat(defaults.onnxIntraOpThreads()).isEqualTo(1);
        assertThat(defaults.onnxSpinning()).isFalse();

        PredictorOptions changed = defaults.withEngine(Engine.TENSORFLOW).withTensorFlowThreads(0, 2);
        assertThat(changed).isEqualTo(new PredictorOptions(Engine.TENSORFLOW, 0, 2, true, 1, false));
        assertThat(changed.withOnnxThreads(2, true))
                .isEqualTo(new PredictorOptions(Engine.TENSORFLOW, 0, 2, true, 2, true));
        assertThatThrownBy(() -> defaults.withOnnxThreads(0, false)).isInstanceOf(IllegalArgumentException.class);
        assertThat(changed.withKernelVectorApi(false).kernelVectorApi()).isFalse();
        assertThatThrownBy(() -> defaults.withTensorFlowThreads(-1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
