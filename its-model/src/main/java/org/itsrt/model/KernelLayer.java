package org.itsrt.model;

/** A layer of the kernel's network with its weights packed for its {@link KernelMath}. */
sealed interface KernelLayer permits KernelLayer.Lstm, KernelLayer.Dense {

    int units();

    /**
     * A Keras LSTM: gates input, forget, candidate, output along the 4*units axis of
     * {@code kernel} and {@code recurrent}; {@code bias} padded to the packed width.
     */
    record Lstm(int units, WeightMatrix kernel, WeightMatrix recurrent, float[] bias, boolean returnSequences)
            implements KernelLayer {}

    /** A Keras Dense layer, ReLU or linear. */
    record Dense(int units, WeightMatrix kernel, float[] bias, boolean relu) implements KernelLayer {}
}
