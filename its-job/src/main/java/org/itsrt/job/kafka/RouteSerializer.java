package org.itsrt.job.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;

/**
 * Writes the answer to a route request as JSON (docs/records.md, its.routes), keyed by the
 * traveller like the request, so that one traveller's answers stay in one partition and in order.
 */
public class RouteSerializer implements KafkaRecordSerializationSchema<RouteAnswer> {

    private static final long serialVersionUID = 1L;

    private final String topic;

    public RouteSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(RouteAnswer answer, KafkaSinkContext context, Long timestamp) {
        RouteRecord record = answer.toRecord();
        return new ProducerRecord<>(
                topic, record.key().getBytes(StandardCharsets.UTF_8), RouteRecordJson.write(record));
    }
}
