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
        assertThat(Engine.KERNEL_INT8.isKernel()).isTrue();
        assertThat(Engine.TENSORFLOW.isKernel()).isFalse();
        for (Engine engine : Engine.values()) {
            assertThat(Engine.fromName(engine.toString())).isEqualTo(engine);
        }
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> Engine.fromName("onnx"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'onnx'")
                .hasMessageContaining("valid engines: kernel, tensorflow, linear, kernel-bf16, kernel-int8");
    }

    @Test
    void optionsStartFromTheDefaultsAndChangeOneThingAtATime() {
        PredictorOptions defaults = PredictorOptions.defaults();
        assertThat(defaults.engine()).isEqualTo(Engine.DEFAULT).isEqualTo(Engine.KERNEL);
        assertThat(defaults.tensorFlowIntraOpThreads()).isEqualTo(1);
        assertThat(defaults.tensorFlowInterOpThreads()).isEqualTo(1);
        assertThat(defaults.kernelVectorApi()).isTrue();

        PredictorOptions changed = defaults.withEngine(Engine.TENSORFLOW).withTensorFlowThreads(0, 2);
        assertThat(changed).isEqualTo(new PredictorOptions(Engine.TENSORFLOW, 0, 2, true));
        assertThat(changed.withKernelVectorApi(false).kernelVectorApi()).isFalse();
        assertThatThrownBy(() -> defaults.withTensorFlowThreads(-1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
