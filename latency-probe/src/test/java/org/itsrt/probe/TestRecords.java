package org.itsrt.probe;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** D2 records as the producers and the job write them, for tests. */
public final class TestRecords {

    private TestRecords() {}

    /** An its.advice record with stage durations. */
    public static byte[] advice(
            long detector, long seq, long sentNs, long intendedNs, long parseNs, long inferNs, long routeNs) {
        return String.format(
                        Locale.ROOT,
                        "{\"v\":1,\"detector\":%d,\"seq\":%d,\"sent_ns\":%d,\"intended_ns\":%d,"
                                + "\"predicted_flow\":412.5,\"model\":\"lstm-flow\",\"route\":[764598,774614,718155,716847,774445],"
                                + "\"route_cost_s\":903.2,\"parse_ns\":%d,\"infer_ns\":%d,\"route_ns\":%d}",
                        detector,
                        seq,
                        sentNs,
                        intendedNs,
                        parseNs,
                        inferNs,
                        routeNs)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** An its.readings record: no stage durations. */
    public static byte[] reading(long detector, long seq, long sentNs, long intendedNs) {
        return String.format(
                        Locale.ROOT,
                        "{\"v\":1,\"detector\":%d,\"ts\":\"2018-03-01T08:55:00Z\","
                                + "\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[60,61,null,63,64,65,66,67,68,69,70,71],"
                                + "\"seq\":%d,\"sent_ns\":%d,\"intended_ns\":%d}",
                        detector,
                        seq,
                        sentNs,
                        intendedNs)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** An its.predictions record: the reading's identity and stamps, a prediction, stages parse and infer. */
    public static byte[] prediction(long detector, long seq, long sentNs, long intendedNs) {
        return String.format(
                        Locale.ROOT,
                        "{\"v\":1,\"detector\":%d,\"ts\":\"2018-03-01T08:55:00Z\",\"seq\":%d,\"sent_ns\":%d,"
                                + "\"intended_ns\":%d,\"predicted_flow\":362.4,\"model\":\"lstm-flow/kernel-bf16\","
                                + "\"parse_ns\":21000,\"infer_ns\":331000}",
                        detector,
                        seq,
                        sentNs,
                        intendedNs)
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An its.routes record answering request {@code seq} of request stream {@code stream}:
     * {@code routed} with a route of three stations, else {@code unreachable} with none.
     */
    public static byte[] answer(int stream, long seq, long sentNs, long intendedNs, boolean routed) {
        return String.format(
                        Locale.ROOT,
                        "{\"v\":1,\"traveller\":%d,\"stream\":%d,\"seq\":%d,\"sent_ns\":%d,\"intended_ns\":%d,"
                                + "\"origin\":764598,\"destination\":774445,\"departure\":\"2026-11-27T08:10:00Z\","
                                + "%s,\"network_version\":48211,\"parse_ns\":21000,\"route_ns\":4800}",
                        90_000 + seq,
                        stream,
                        seq,
                        sentNs,
                        intendedNs,
                        routed
                                ? "\"outcome\":\"routed\",\"route\":[764598,717731,774445],\"travel_time_s\":699.5"
                                : "\"outcome\":\"unreachable\",\"route\":[],\"travel_time_s\":null")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** An its.route-requests record: what a traveller asks, no outcome. */
    public static byte[] routeRequest(int stream, long seq, long sentNs, long intendedNs) {
        return String.format(
                        Locale.ROOT,
                        "{\"v\":1,\"traveller\":%d,\"origin\":764598,\"destination\":774445,"
                                + "\"departure\":\"2026-11-27T08:10:00Z\",\"requested_at\":\"2026-11-27T08:00:00.250Z\","
                                + "\"stream\":%d,\"seq\":%d,\"sent_ns\":%d,\"intended_ns\":%d}",
                        90_000 + seq,
                        stream,
                        seq,
                        sentNs,
                        intendedNs)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The same record flagged as a warm-up record ({@code "warmup":true} last, as the codec writes it). */
    public static byte[] warmup(byte[] record) {
        String json = new String(record, StandardCharsets.UTF_8);
        return (json.substring(0, json.length() - 1) + ",\"warmup\":true}").getBytes(StandardCharsets.UTF_8);
    }

    public static ConsumerRecord<byte[], byte[]> record(String topic, int partition, long offset, byte[] value) {
        return new ConsumerRecord<>(topic, partition, offset, null, value);
    }
}
