package org.itsrt.probe.arrival;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.RecordStampsReader;

/**
 * What the consume loop does with one consumed record: read its stamps with the reader of its
 * topic and hand the {@link Arrival} to the sink of its stream. The study's probe reads one topic
 * with {@link RecordStampsReader} ({@link #stamps}); the district workload reads three topics,
 * each its own way (the probe's {@code DistrictIntake}).
 */
@FunctionalInterface
public interface RecordIntake {

    /** What became of a record. */
    enum Taken {
        /** Read and handed on as an arrival. */
        MEASURED,
        /** Could not be read; handed on as a {@link MalformedRecord}. */
        MALFORMED,
        /** Counted, but neither: a dead letter, which carries another record's bytes. */
        COUNTED
    }

    /**
     * Takes one record.
     *
     * @param arrivalNs the stamp of the poll that returned it
     */
    Taken take(ConsumerRecord<byte[], byte[]> record, long arrivalNs);

    /** Every record read by {@link RecordStampsReader} and handed to {@code sink}: the study's topic. */
    static RecordIntake stamps(ArrivalSink sink) {
        return (record, arrivalNs) -> {
            try {
                sink.arrived(Arrival.of(RecordStampsReader.read(record.value()), arrivalNs));
                return Taken.MEASURED;
            } catch (MalformedRecordException e) {
                sink.malformed(malformed(record, e));
                return Taken.MALFORMED;
            }
        };
    }

    /** The report's view of a record its reader rejected. */
    static MalformedRecord malformed(ConsumerRecord<byte[], byte[]> record, MalformedRecordException e) {
        return new MalformedRecord(e.reason(), e.getMessage(), record.partition(), record.offset());
    }
}
