package org.itsrt.model;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Map;

/**
 * Runs the bundle's ONNX graph in ONNX Runtime. The input and output live in direct buffers that
 * ONNX Runtime reads and writes in place (the output is "pinned"), and the tensors over them are
 * kept per batch size, so a call copies the encoded windows in and the predictions out and
 * allocates only ONNX Runtime's small result objects.
 */
final class OnnxPredictor extends EncodingPredictor {
    /** Batch sizes up to this keep their tensors between calls; a larger batch makes them per call. */
    private static final int CACHED_BATCHES = 64;

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final String inputName;
    private final String outputName;
    private final int window;
    private final int features;
    private final BatchTensors[] cached = new BatchTensors[CACHED_BATCHES + 1];
    private FloatBuffer input;
    private FloatBuffer output;

    /** The tensors of one batch size over the shared buffers. */
    private record BatchTensors(
            OnnxTensor input, OnnxTensor output, Map<String, OnnxTensor> feed, Map<String, OnnxTensor> pinned)
            implements AutoCloseable {
        @Override
        public void close() {
            input.close();
            output.close();
        }
    }

    OnnxPredictor(
            ModelBundle bundle,
            OrtEnvironment environment,
            OrtSession session,
            ModelSpec.OnnxGraph graph,
            AutoCloseable owner) {
        super(bundle, owner);
        this.environment = environment;
        this.session = session;
        this.inputName = graph.input();
        this.outputName = graph.output();
        this.window = bundle.model().window();
        this.features = bundle.model().features().size();
        allocate(1);
    }

    @Override
    public Engine engine() {
        return Engine.ONNX;
    }

    @Override
    public void predictScaled(float[] scaledInputs, int count, float[] scaledOut) {
        checkInput(scaledInputs, count, scaledOut);
        if (count == 0) {
            return;
        }
        if (count > output.capacity()) {
            // Doubling: batches that grow one window at a time (a batch filling up under load)
            // reallocate the buffers and rewrap the cached tensors a logarithmic number of times.
            releaseTensors();
            allocate(Math.max(count, 2 * output.capacity()));
        }
        input.clear();
        input.put(scaledInputs, 0, count * inputWidth());
        BatchTensors tensors = count <= CACHED_BATCHES ? cachedTensors(count) : tensors(count);
        try (OrtSession.Result ignored = session.run(tensors.feed(), tensors.pinned())) {
            output.get(0, scaledOut, 0, count);
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime failed on a batch of " + count + ": " + e.getMessage(), e);
        } finally {
            if (count > CACHED_BATCHES) {
                tensors.close();
            }
        }
    }

    private BatchTensors cachedTensors(int count) {
        BatchTensors tensors = cached[count];
        if (tensors == null) {
            tensors = tensors(count);
            cached[count] = tensors;
        }
        return tensors;
    }

    private BatchTensors tensors(int count) {
        try {
            OnnxTensor in = OnnxTensor.createTensor(
                    environment, input.slice(0, count * inputWidth()), new long[] {count, window, features});
            OnnxTensor out = OnnxTensor.createTensor(environment, output.slice(0, count), new long[] {count, 1});
            return new BatchTensors(in, out, Map.of(inputName, in), Map.of(outputName, out));
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime cannot wrap a batch of " + count + ": " + e.getMessage(), e);
        }
    }

    /** How many windows the buffers hold now. */
    int capacity() {
        return output.capacity();
    }

    private void allocate(int windows) {
        input = directFloats(windows * inputWidth());
        output = directFloats(windows);
    }

    private static FloatBuffer directFloats(int count) {
        return ByteBuffer.allocateDirect(count * Float.BYTES)
                .order(ByteOrder.nativeOrder())
                .asFloatBuffer();
    }

    private void releaseTensors() {
        for (int i = 0; i < cached.length; i++) {
            if (cached[i] != null) {
                cached[i].close();
                cached[i] = null;
            }
        }
    }

    @Override
    public void close() {
        releaseTensors();
        super.close();
    }
}
