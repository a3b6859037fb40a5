package org.itsrt.kafka;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --producer-prop KEY=VALUE}: Kafka settings for the detector producers, over the latency defaults. */
public final class ProducerPropertiesOption {

    @Option(
            names = "--producer-prop",
            paramLabel = "KEY=VALUE",
            description = "a Kafka producer setting for the detector producers (repeatable), e.g. linger.ms=5")
    Map<String, String> properties;

    /** The settings given, in order; empty for none. */
    public Map<String, String> given() {
        return properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }
}
