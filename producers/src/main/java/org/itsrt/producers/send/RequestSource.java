package org.itsrt.producers.send;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.producers.requests.RequestStream;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;

/**
 * One stream of route requests on the open-loop schedule, as {@link DetectorSource} is one
 * detector's readings: record k is request k of its {@link RequestStream} (so {@code seq = k} and
 * the probe checks delivery per stream), made at the wall clock's instant and stamped like a reading,
 * keyed by the traveller so that the requests spread over every partition.
 */
public final class RequestSource implements RecordSource {

    private final RequestStream requests;
    private final String topic;
    private final Clock wallClock;

    /**
     * @param wallClock what a request's {@code requested_at} (and so its departure) is read from; the
     *                  latency stamps come from the sender's latency clock, not this one
     */
    public RequestSource(RequestStream requests, String topic, Clock wallClock) {
        this.requests = requests;
        this.topic = topic;
        this.wallClock = wallClock;
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(long k, boolean warmup, long sentNs, long intendedNs) {
        RouteRequestRecord unstamped = requests.request(k, wallClock.instant());
        RouteRequestRecord stamped = (warmup ? unstamped.withWarmup(true) : unstamped).stamped(sentNs, intendedNs);
        return new ProducerRecord<>(
                topic, stamped.key().getBytes(StandardCharsets.UTF_8), RouteRecordJson.write(stamped));
    }

    @Override
    public String name() {
        return "requests-" + requests.stream();
    }
}
