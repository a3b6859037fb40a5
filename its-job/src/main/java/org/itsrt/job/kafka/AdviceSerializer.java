package org.itsrt.job.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.functions.ToAdviceRecord;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.records.RecordJson;

/**
 * Writes advice as D2 JSON (docs/records.md), keyed by the detector id like the input, so that
 * one detector's advice stays in one partition and in order.
 */
public class AdviceSerializer implements KafkaRecordSerializationSchema<RoutedAdvice> {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final ToAdviceRecord toRecord;

    public AdviceSerializer(String topic, String model) {
        this.topic = topic;
        this.toRecord = new ToAdviceRecord(model);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(RoutedAdvice advice, KafkaSinkContext context, Long timestamp) {
        byte[] key = Long.toString(advice.detector).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, key, RecordJson.write(toRecord.map(advice)));
    }
}
