package org.itsrt.producers.send;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.kafka.KafkaClientConfig;

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
        // Retries (unbounded by count, Kafka's default) go on for 2 minutes, Kafka's default: a
        // broker stopped for 20 s and started again (a restart, a rolling upgrade) takes 30 s or
        // more until it serves, and a record held that long must still be delivered, not expired.
        // Idempotence keeps those retries from duplicating a record. A broker that stays away
        // fails the sends after 2 minutes.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        // A broker going down answers NOT_LEADER_OR_FOLLOWER or drops the connection: the
        // producer forgets the partition's leader and send() waits for metadata, up to this long,
        // before it fails the record without a retry. As long as a batch waits, for the same
        // restart. The broker and the topic are checked before the first send, so a typo still
        // fails at once.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "120000");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        kafkaConfig.applyTo(p);
        p.putAll(overrides);
        return p;
    }
}
