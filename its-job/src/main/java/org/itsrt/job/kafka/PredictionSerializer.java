package org.itsrt.job.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.functions.ToPredictionRecord;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.records.RecordJson;

/**
 * Writes a reading's prediction as JSON (docs/records.md, its.predictions), keyed by the detector
 * id like the reading, so that one detector's predictions stay in one partition and in order.
 */
public class PredictionSerializer implements KafkaRecordSerializationSchema<PredictedFlow> {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final ToPredictionRecord toRecord;

    public PredictionSerializer(String topic, String model) {
        this.topic = topic;
        this.toRecord = new ToPredictionRecord(model);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            PredictedFlow prediction, KafkaSinkContext context, Long timestamp) {
        byte[] key = Long.toString(prediction.detector).getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, key, RecordJson.write(toRecord.map(prediction)));
    }
}
