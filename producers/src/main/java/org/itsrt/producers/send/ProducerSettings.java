package org.itsrt.producers.send;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.cli.KafkaClientConfig;

/**
 * Kafka producer properties tuned for latency, each default explained; a client properties file
 * ({@code --kafka-config}) goes over them, and the user's overrides over both.
 */
public final class ProducerSettings {

    private ProducerSettings() {}

    public static Map<String, Object> forLatency(String bootstrapServers, String acks, Map<String, String> overrides) {
        return forLatency(bootstrapServers, acks, KafkaClientConfig.none(), overrides);
    }

    public static Map<String, Object> forLatency(
            String bootstrapServers, String acks, KafkaClientConfig kafkaConfig, Map<String, String> overrides) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // Kafka 4.x waits 5 ms by default to fill a batch; at 10 records/s per producer that wait
        // would be pure latency.
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.ACKS_CONFIG, acks);
        // Idempotence keeps retries from duplicating or reordering records, but needs acks=all.
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, Boolean.toString("all".equals(acks) || "-1".equals(acks)));
        // ~400-byte JSON records: compression would cost CPU for nothing.
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        // Fail a send within 30 s instead of the default 2 minutes, so a lost broker shows soon.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        kafkaConfig.applyTo(p);
        p.putAll(overrides);
        return p;
    }
}
