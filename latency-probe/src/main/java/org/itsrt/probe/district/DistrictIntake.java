package org.itsrt.probe.district;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.itsrt.probe.MeasuredDistrictTopics;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.MalformedRecord;
import org.itsrt.probe.arrival.RecordIntake;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.RecordStamps;
import org.itsrt.records.RecordStampsReader;
import org.itsrt.records.RouteStamps;
import org.itsrt.records.RouteStampsReader;
import org.itsrt.records.Workload;

/**
 * Sends each record of the district workload to its stream: a prediction, read by
 * {@link RecordStampsReader} as advice is, to the predictions stream; an answer, read by
 * {@link RouteStampsReader}, to the routes stream (with its request stream in the detector's place,
 * so loss and duplicates are told per request stream) and to the {@link AnswerOutcomes}; a dead
 * letter to the {@link DeadLetterCounts} of the stream its source topic feeds, with the detector or
 * request stream and the {@code seq} of the rejected record when its bytes tell them.
 */
public final class DistrictIntake implements RecordIntake {

    private final MeasuredDistrictTopics topics;
    private final ArrivalSink predictions;
    private final ArrivalSink routes;
    private final AnswerOutcomes outcomes;
    private final DeadLetterCounts deadLetters;

    public DistrictIntake(
            MeasuredDistrictTopics topics,
            ArrivalSink predictions,
            ArrivalSink routes,
            AnswerOutcomes outcomes,
            DeadLetterCounts deadLetters) {
        this.topics = topics;
        this.predictions = predictions;
        this.routes = routes;
        this.outcomes = outcomes;
        this.deadLetters = deadLetters;
    }

    @Override
    public Taken take(ConsumerRecord<byte[], byte[]> record, long arrivalNs) {
        String topic = record.topic();
        if (topic.equals(topics.predictions())) {
            return prediction(record, arrivalNs);
        }
        if (topic.equals(topics.routes())) {
            return answer(record, arrivalNs);
        }
        if (topic.equals(topics.deadLetters())) {
            deadLetter(record);
            return Taken.COUNTED;
        }
        throw new IllegalStateException("record of topic " + topic + ", which the district probe does not read");
    }

    private Taken prediction(ConsumerRecord<byte[], byte[]> record, long arrivalNs) {
        try {
            predictions.arrived(Arrival.of(RecordStampsReader.read(record.value()), arrivalNs));
            return Taken.MEASURED;
        } catch (MalformedRecordException e) {
            predictions.malformed(RecordIntake.malformed(record, e));
            return Taken.MALFORMED;
        }
    }

    private Taken answer(ConsumerRecord<byte[], byte[]> record, long arrivalNs) {
        RouteStamps stamps;
        try {
            stamps = RouteStampsReader.read(record.value());
        } catch (MalformedRecordException e) {
            routes.malformed(RecordIntake.malformed(record, e));
            return Taken.MALFORMED;
        }
        if (!stamps.isAnswer()) {
            // A request on the answers' topic: there is no answer to measure.
            routes.malformed(new MalformedRecord(
                    "missing outcome",
                    "no \"outcome\": a route request, not an answer",
                    record.partition(),
                    record.offset()));
            return Taken.MALFORMED;
        }
        Arrival arrival = Arrival.of(stamps.toRecordStamps(), arrivalNs);
        outcomes.arrived(stamps.outcome(), arrival);
        routes.arrived(arrival);
        return Taken.MEASURED;
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record) {
        String source = header(record, DeadLetterHeaders.SOURCE_TOPIC);
        String reason = header(record, DeadLetterHeaders.REASON);
        if (topics.readings().equals(source)) {
            try {
                RecordStamps reading = RecordStampsReader.read(record.value());
                deadLetters.add(Workload.Stream.PREDICTIONS, reason, reading.detector(), reading.seq());
            } catch (MalformedRecordException unreadable) {
                // Rejected for bytes that name no detector or seq: counted, not matched to a loss.
                deadLetters.add(Workload.Stream.PREDICTIONS, reason);
            }
        } else if (topics.routeRequests().equals(source)) {
            try {
                RouteStamps request = RouteStampsReader.read(record.value());
                deadLetters.add(Workload.Stream.ROUTES, reason, request.stream(), request.seq());
            } catch (MalformedRecordException unreadable) {
                deadLetters.add(Workload.Stream.ROUTES, reason);
            }
        } else {
            deadLetters.addOther(source);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
