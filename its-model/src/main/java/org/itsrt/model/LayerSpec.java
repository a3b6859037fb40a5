package org.itsrt.model;

/**
 * One layer of the network as model.json lists it (dropout layers are not listed: they are the
 * identity at inference).
 *
 * @param name            Keras layer name; its weights are named after it in the SavedModel
 * @param type            lstm, gru or dense (the kernel engines run lstm and dense)
 * @param units           output width
 * @param activation      tanh for an lstm (its recurrent activation is Keras' sigmoid); relu
 *                        or linear for a dense layer
 * @param returnSequences for an lstm: whether it outputs every step (true) or the last (false)
 */
public record LayerSpec(String name, Type type, int units, String activation, boolean returnSequences) {

    public enum Type {
        LSTM,
        GRU,
        DENSE
    }
}
