package org.itsrt.model;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the kernel's math: the Vector API when wanted and the JVM has the incubator module,
 * otherwise the scalar path, saying why in the log so a missing flag does not go unnoticed.
 */
final class KernelMathSelector {
    static final String VECTOR_MODULE = "jdk.incubator.vector";
    private static final Logger LOG = LoggerFactory.getLogger(KernelMathSelector.class);

    private KernelMathSelector() {}

    static KernelMath select(boolean vectorApiWanted) {
        return select(
                vectorApiWanted, ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent());
    }

    static KernelMath select(boolean vectorApiWanted, boolean vectorModulePresent) {
        if (!vectorApiWanted) {
            LOG.info("LSTM kernel: scalar math (the Vector API is switched off in the predictor options)");
            return new ScalarMath();
        }
        if (!vectorModulePresent) {
            LOG.warn("LSTM kernel: scalar math, several times slower: the JVM lacks " + VECTOR_MODULE
                    + "; start it with --add-modules " + VECTOR_MODULE);
            return new ScalarMath();
        }
        try {
            KernelMath math = (KernelMath) Class.forName("org.itsrt.model.VectorMath")
                    .getDeclaredConstructor()
                    .newInstance();
            LOG.info("LSTM kernel: {}", math.description());
            return math;
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.warn("LSTM kernel: scalar math, the Vector API failed to load: {}", e.toString());
            return new ScalarMath();
        }
    }
}
