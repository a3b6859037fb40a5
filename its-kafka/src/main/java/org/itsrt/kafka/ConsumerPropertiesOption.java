package org.itsrt.kafka;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --consumer-prop KEY=VALUE}: Kafka settings for the probe's consumer, over the latency defaults. */
public final class ConsumerPropertiesOption {

    @Option(
            names = "--consumer-prop",
            paramLabel = "KEY=VALUE",
            description = "a Kafka consumer setting for the probe (repeatable)")
    Map<String, String> properties;

    /** The settings given, in order; empty for none. */
    public Map<String, String> given() {
        return properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** What is wrong with the settings given, naming the option; null when nothing is. */
    public String problem() {
        return given().keySet().stream().anyMatch(String::isBlank)
                ? "--consumer-prop needs KEY=VALUE with a key"
                : null;
    }
}
