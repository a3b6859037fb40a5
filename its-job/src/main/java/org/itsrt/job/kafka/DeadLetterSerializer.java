package org.itsrt.job.kafka;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.itsrt.job.records.DeadLetter;

/**
 * Writes a dead letter as the original bytes, untouched, with the reason in the header
 * {@value #REASON} and where the record came from in {@value #SOURCE_TOPIC},
 * {@value #SOURCE_PARTITION} and {@value #SOURCE_OFFSET} (all UTF-8 text), so it can be found
 * and replayed.
 */
public class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetter> {

    private static final long serialVersionUID = 1L;

    public static final String REASON = org.itsrt.records.DeadLetterHeaders.REASON;
    public static final String SOURCE_TOPIC = org.itsrt.records.DeadLetterHeaders.SOURCE_TOPIC;
    public static final String SOURCE_PARTITION = org.itsrt.records.DeadLetterHeaders.SOURCE_PARTITION;
    public static final String SOURCE_OFFSET = org.itsrt.records.DeadLetterHeaders.SOURCE_OFFSET;

    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter letter, KafkaSinkContext context, Long timestamp) {
        List<Header> headers = List.of(
                header(REASON, letter.reason),
                header(SOURCE_TOPIC, letter.sourceTopic),
                header(SOURCE_PARTITION, Integer.toString(letter.sourcePartition)),
                header(SOURCE_OFFSET, Long.toString(letter.sourceOffset)));
        return new ProducerRecord<>(topic, null, null, null, letter.value, headers);
    }

    private static Header header(String key, String value) {
        return new RecordHeader(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }
}
