package org.itsrt.producers.send;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;

/**
 * One detector's readings as a stream on the open-loop schedule: record k is its window k (cycled),
 * with {@code seq = k}, keyed by the detector so that one detector's records stay in one partition,
 * in order.
 */
public final class DetectorSource implements RecordSource {

    private final DetectorWindows windows;
    private final String topic;
    private final byte[] key;

    public DetectorSource(DetectorWindows windows, String topic) {
        this.windows = windows;
        this.topic = topic;
        this.key = Long.toString(windows.detector()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(long k, boolean warmup, long sentNs, long intendedNs) {
        ReadingRecord unstamped = windows.record(k);
        ReadingRecord stamped = (warmup ? unstamped.withWarmup(true) : unstamped).stamped(sentNs, intendedNs);
        return new ProducerRecord<>(topic, key, RecordJson.write(stamped));
    }

    @Override
    public String name() {
        return Long.toString(windows.detector());
    }
}
