package org.itsrt.model;

import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.types.TFloat32;

/** Runs the SavedModel's serve signature in TensorFlow: the reference engine. */
final class TensorFlowPredictor extends EncodingPredictor {
    private final Session session;
    private final String inputTensor;
    private final String outputTensor;
    private final int window;
    private final int features;

    TensorFlowPredictor(
            ModelBundle bundle, Session session, String inputTensor, String outputTensor, AutoCloseable owner) {
        super(bundle, owner);
        this.session = session;
        this.inputTensor = inputTensor;
        this.outputTensor = outputTensor;
        this.window = bundle.model().window();
        this.features = bundle.model().features().size();
    }

    @Override
    public Engine engine() {
        return Engine.TENSORFLOW;
    }

    @Override
    public void predictScaled(float[] scaledInputs, int count, float[] scaledOut) {
        checkInput(scaledInputs, count, scaledOut);
        if (count == 0) {
            return;
        }
        try (TFloat32 input = TFloat32.tensorOf(
                        Shape.of(count, window, features),
                        DataBuffers.of(scaledInputs, true, false).narrow((long) count * inputWidth()));
                Result result = session.runner()
                        .feed(inputTensor, input)
                        .fetch(outputTensor)
                        .run()) {
            TFloat32 output = (TFloat32) result.get(0);
            output.copyTo(DataBuffers.of(scaledOut, false, false).narrow(count));
        }
    }
}
