package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the Kafka sink's committer meets when a restored checkpoint's transaction is committed a
 * second time (docs/job.md, section 6): on a Kafka 4 broker the first commit moved the producer's
 * epoch on, so the second, sent by a producer resumed from the checkpoint's producer id and epoch,
 * is answered as fenced, and KafkaCommitter logs "its producer is already fenced ... most likely
 * signals data loss" although the records are on the topic, committed once. A transaction that
 * was only pre-committed (the job failed before the commit) is committed by the same resumed
 * producer.
 */
class KafkaRecommitTest {

    private static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafkaOptions.defaults());
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A transaction's producer id and epoch, as the sink's checkpoint keeps them. */
    private record Committable(String transactionalId, long producerId, short epoch) {}

    @Test
    void committingAgainATransactionCommittedBeforeIsAnsweredAsFencedAndLosesNothing() throws Exception {
        try (Admin admin = kafka.admin()) {
            FinalizedVersionRange transactionVersion = admin.describeFeatures()
                    .featureMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .finalizedFeatures()
                    .get("transaction.version");
            assertThat(transactionVersion)
                    .as("the broker's transaction protocol: version 2 (KIP-890) moves the epoch on at each commit")
                    .isNotNull();
            assertThat(transactionVersion.maxVersionLevel()).isGreaterThanOrEqualTo((short) 2);
        }
        String topic = "recommit.committed";
        kafka.createTopics(List.of(topic), 1);
        Committable committable = writeOneRecord(topic, "recommit-committed-0-2", true);

        try (FlinkKafkaInternalProducer<byte[], byte[]> resumed =
                new FlinkKafkaInternalProducer<>(producerConfig(), committable.transactionalId())) {
            resumed.resumeTransaction(committable.producerId(), committable.epoch());
            assertThatThrownBy(resumed::commitTransaction).isInstanceOf(ProducerFencedException.class);
        }
        assertThat(CommittedOutput.records(kafka.bootstrapServers(), topic))
                .as("the record committed the first time, once")
                .hasSize(1);
    }

    @Test
    void aPrecommittedTransactionIsCommittedByAProducerResumedFromItsCheckpoint() throws Exception {
        String topic = "recommit.precommitted";
        kafka.createTopics(List.of(topic), 1);
        Committable committable = writeOneRecord(topic, "recommit-precommitted-0-2", false);
        assertThat(CommittedOutput.records(kafka.bootstrapServers(), topic))
                .as("nothing visible before the commit")
                .isEmpty();

        try (FlinkKafkaInternalProducer<byte[], byte[]> resumed =
                new FlinkKafkaInternalProducer<>(producerConfig(), committable.transactionalId())) {
            resumed.resumeTransaction(committable.producerId(), committable.epoch());
            resumed.commitTransaction();
        }
        assertThat(CommittedOutput.records(kafka.bootstrapServers(), topic)).hasSize(1);
    }

    /**
     * Writes one record in a transaction, as the sink's writer does, and commits it when asked;
     * otherwise leaves it open, as a job that failed between its checkpoint and the commit does.
     */
    private static Committable writeOneRecord(String topic, String transactionalId, boolean commit) throws Exception {
        try (FlinkKafkaInternalProducer<byte[], byte[]> writer =
                new FlinkKafkaInternalProducer<>(producerConfig(), transactionalId)) {
            writer.initTransactions();
            writer.beginTransaction();
            writer.send(new ProducerRecord<>(topic, "one record".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
            writer.flush();
            Committable committable = new Committable(transactionalId, writer.getProducerId(), writer.getEpoch());
            if (commit) {
                writer.commitTransaction();
            }
            // Closed without waiting, as the sink closes it: an open transaction stays open.
            return committable;
        }
    }

    private static Properties producerConfig() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        return p;
    }
}
