package org.itsrt.job.kafka;

import java.util.Properties;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.itsrt.job.DistrictJobIO;
import org.itsrt.job.JobIO;
import org.itsrt.job.config.DeliverySettings;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.config.KafkaSettings;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.job.records.RoutedAdvice;

/**
 * The job's Kafka source and sinks, with the client settings the latency path needs (docs/job.md).
 * The {@code --kafka-config} file's settings go over the defaults here, and properties given as
 * {@code --consumer.KEY} / {@code --producer.KEY} over both;
 * what the connector must control (servers, group, (de)serializers, transactions) is set last.
 * The ends of both workloads: the district's sources and sinks take the same settings as the
 * study's.
 */
public final class KafkaJobIO implements JobIO, DistrictJobIO {

    /**
     * The broker answers a fetch as soon as one byte is there; how long an empty fetch waits
     * matters only while the topic is idle. Kept short so an idle-then-busy topic is picked up
     * without a long-poll in the way, at a cost of a few empty fetches per second.
     */
    public static final String FETCH_MAX_WAIT_MS = "50";

    /**
     * Kafka 4 producers wait 5 ms for a batch to fill by default and Flink's sink does not
     * change it: at 60 records/s every record would wait the full 5 ms.
     */
    public static final String LINGER_MS = "0";

    /**
     * A transaction left open longer than this is aborted by the broker. Flink's sink defaults
     * to one hour, which brokers refuse unless {@code transaction.max.timeout.ms} (15 minutes by
     * default) was raised; 15 minutes is far above any checkpoint interval the job is run with.
     */
    public static final String TRANSACTION_TIMEOUT_MS = "900000";

    private final KafkaSettings kafka;
    private final DeliverySettings delivery;
    private final String modelLabel;

    /** @param modelLabel what advice and prediction records carry in {@code model} */
    public KafkaJobIO(KafkaSettings kafka, DeliverySettings delivery, String modelLabel) {
        this.kafka = kafka;
        this.delivery = delivery;
        this.modelLabel = modelLabel;
    }

    /** The Kafka ends of a run as its settings describe them. */
    public static KafkaJobIO of(JobSettings settings) {
        return new KafkaJobIO(
                settings.kafka(), settings.delivery(), settings.model().label());
    }

    /** Raw input records, from the configured topic and starting offsets. */
    @Override
    public Source<RawReading, ?, ?> readings() {
        return source(kafka.inputTopic());
    }

    /** Raw route requests, from the requests topic and the same starting offsets. */
    @Override
    public Source<RawReading, ?, ?> routeRequests() {
        return source(kafka.districtTopics().requests());
    }

    private Source<RawReading, ?, ?> source(String topic) {
        Properties props = new Properties();
        props.setProperty("fetch.min.bytes", "1");
        props.setProperty("fetch.max.wait.ms", FETCH_MAX_WAIT_MS);
        // The source's consumers and its admin client (partition discovery) take these alike.
        kafka.clientConfig().applyTo(props);
        props.putAll(kafka.consumerProperties());
        return KafkaSource.<RawReading>builder()
                .setProperties(props)
                .setBootstrapServers(kafka.bootstrapServers())
                .setTopics(topic)
                .setGroupId(kafka.groupId())
                .setClientIdPrefix(kafka.groupId() + "-" + topic)
                .setStartingOffsets(
                        kafka.startingOffsets() == KafkaSettings.StartingOffsets.EARLIEST
                                ? OffsetsInitializer.earliest()
                                : OffsetsInitializer.latest())
                .setDeserializer(new RawReadingDeserializer())
                .build();
    }

    /** Advice records as D2 JSON on the output topic. */
    @Override
    public Sink<RoutedAdvice> advice() {
        return sink(new AdviceSerializer(kafka.outputTopic(), modelLabel), "advice");
    }

    /** Predictions as JSON on the predictions topic. */
    @Override
    public Sink<PredictedFlow> predictions() {
        return sink(new PredictionSerializer(kafka.districtTopics().predictions(), modelLabel), "predictions");
    }

    /** Answers to route requests as JSON on the routes topic. */
    @Override
    public Sink<RouteAnswer> routes() {
        return sink(new RouteSerializer(kafka.districtTopics().routes()), "routes");
    }

    /** Dead letters, original bytes and reason headers, on the dead-letter topic. */
    @Override
    public Sink<DeadLetter> deadLetters() {
        return sink(new DeadLetterSerializer(kafka.deadLetterTopic()), "dead-letters");
    }

    @Override
    public String describe(End end) {
        return "kafka: "
                + switch (end) {
                    case READINGS -> kafka.inputTopic();
                    case ADVICE -> kafka.outputTopic();
                    case DEAD_LETTERS -> kafka.deadLetterTopic();
                    case PREDICTIONS -> kafka.districtTopics().predictions();
                    case ROUTE_REQUESTS -> kafka.districtTopics().requests();
                    case ROUTES -> kafka.districtTopics().routes();
                };
    }

    /** The producer properties of the job's sinks, before the connector adds its own. */
    public Properties producerProperties() {
        Properties props = new Properties();
        props.setProperty("linger.ms", LINGER_MS);
        // Kafka 4's defaults, written out because the latency and delivery figures depend on them.
        props.setProperty("acks", "all");
        props.setProperty("enable.idempotence", "true");
        props.setProperty("compression.type", "none");
        if (delivery.exactlyOnce()) {
            props.setProperty("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
        }
        kafka.clientConfig().applyTo(props);
        props.putAll(kafka.producerProperties());
        return props;
    }

    private <T> KafkaSink<T> sink(KafkaRecordSerializationSchema<T> serializer, String name) {
        KafkaSinkBuilder<T> builder = KafkaSink.<T>builder()
                .setKafkaProducerConfig(producerProperties())
                .setBootstrapServers(kafka.bootstrapServers())
                .setRecordSerializer(serializer);
        if (delivery.exactlyOnce()) {
            // Several sinks write to one cluster: each needs its own transactional ids.
            builder.setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                    .setTransactionalIdPrefix(delivery.transactionalIdPrefix() + "-" + name);
        } else {
            builder.setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE);
        }
        return builder.build();
    }
}
