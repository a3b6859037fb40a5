package org.itsrt.job.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.itsrt.job.records.RawReading;

/**
 * Takes the input records as bytes, with their topic, partition and offset: parsing happens in
 * the job's own operator, where a bad record becomes a dead letter instead of a failed source. The
 * record's timestamp comes along: a record's deadline counts from it (docs/deadlines.md).
 */
public class RawReadingDeserializer implements KafkaRecordDeserializationSchema<RawReading> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawReading> out) {
        out.collect(new RawReading(
                record.topic(), record.partition(), record.offset(), record.value(), record.timestamp()));
    }

    @Override
    public TypeInformation<RawReading> getProducedType() {
        return TypeInformation.of(RawReading.class);
    }
}
