package org.itsrt.probe.arrival;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.ManualClock;
import org.itsrt.probe.TestRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ConsumeLoopTest {

    private static final String TOPIC = "its.advice";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
    private final List<Arrival> arrivals = new ArrayList<>();
    private final List<MalformedRecord> malformed = new ArrayList<>();
    private final ArrivalSink sink = new ArrivalSink() {
        @Override
        public void arrived(Arrival arrival) {
            arrivals.add(arrival);
        }

        @Override
        public void malformed(MalformedRecord record) {
            malformed.add(record);
        }
    };

    ConsumeLoopTest() {
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.updateEndOffsets(Map.of(P0, 5L, P1, 7L));
    }

    @Test
    void stampsEveryRecordOfAPollWithOneReadingOfTheClock() {
        ManualClock clock = new ManualClock(0);
        consumer.schedulePollTask(() -> {
            clock.set(1_000_000);
            consumer.addRecord(TestRecords.record(TOPIC, 0, 5, TestRecords.advice(1, 0, 100, 50, 1, 2, 3)));
            consumer.addRecord(TestRecords.record(TOPIC, 1, 7, TestRecords.advice(2, 0, 200, 150, 1, 2, 3)));
        });
        consumer.schedulePollTask(() -> {
            clock.set(2_000_000);
            consumer.addRecord(TestRecords.record(TOPIC, 0, 6, TestRecords.advice(1, 1, 300, 250, 1, 2, 3)));
        });

        ConsumeLoop loop = new ConsumeLoop(consumer, clock, sink, new ConsumeLoop.Limits(3, 0, 0));
        AtomicReference<Map<TopicPartition, Long>> ready = new AtomicReference<>();
        ConsumeLoop.StopReason reason = loop.run(List.of(P0, P1), ready::set);

        assertThat(reason).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(ready.get()).containsExactly(Map.entry(P0, 5L), Map.entry(P1, 7L));
        assertThat(consumer.assignment()).containsExactlyInAnyOrder(P0, P1);
        assertThat(arrivals).extracting(Arrival::arrivalNs).containsExactly(1_000_000L, 1_000_000L, 2_000_000L);
        // Records of different partitions in one poll come in no fixed order.
        assertThat(arrivals)
                .extracting(Arrival::latencyFromSentNs)
                .containsExactlyInAnyOrder(999_900L, 999_800L, 1_999_700L);
        assertThat(arrivals.get(2).latencyFromSentNs()).isEqualTo(1_999_700L);
    }

    @Test
    void readsFromTheBeginningWhenTheResetStrategySaysSo() {
        MockConsumer<byte[], byte[]> earliest = new MockConsumer<>("earliest");
        earliest.updateBeginningOffsets(Map.of(P0, 2L));
        earliest.updateEndOffsets(Map.of(P0, 9L));
        earliest.schedulePollTask(
                () -> earliest.addRecord(TestRecords.record(TOPIC, 0, 2, TestRecords.advice(1, 0, 0, 0, 1, 1, 1))));
        AtomicReference<Map<TopicPartition, Long>> ready = new AtomicReference<>();

        new ConsumeLoop(earliest, new ManualClock(10), sink, new ConsumeLoop.Limits(1, 0, 0))
                .run(List.of(P0), ready::set);

        assertThat(ready.get()).containsExactly(Map.entry(P0, 2L));
        assertThat(arrivals).hasSize(1);
    }

    @Test
    void stopsAtExactlyTheRequestedCountAndLeavesTheRestOfTheBatch() {
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < 10; i++) {
                consumer.addRecord(TestRecords.record(TOPIC, 0, 5 + i, TestRecords.advice(1, i, 0, 0, 1, 1, 1)));
            }
        });

        ConsumeLoop loop = new ConsumeLoop(consumer, new ManualClock(1), sink, new ConsumeLoop.Limits(4, 0, 0));

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(arrivals).extracting(Arrival::seq).containsExactly(0L, 1L, 2L, 3L);
        assertThat(loop.valid()).isEqualTo(4);
    }

    @Test
    void theRecordLimitCountsDistinctReadingsSoDuplicatesAfterAFailoverDoNotEndTheRunEarly() {
        consumer.schedulePollTask(() -> {
            // seq 0 and 1, then both again (a job replaying from its checkpoint), then seq 2 and 3
            for (int seq : new int[] {0, 1, 0, 1, 2, 3, 4}) {
                consumer.addRecord(TestRecords.record(
                        TOPIC, 0, 5 + arrivalsScheduled++, TestRecords.advice(1, seq, 0, 0, 1, 1, 1)));
            }
        });
        org.itsrt.probe.stats.SequenceTracker sequences = new org.itsrt.probe.stats.SequenceTracker();
        ArrivalSink tracking = arrival -> {
            arrivals.add(arrival);
            sequences.record(arrival.detector(), arrival.seq());
        };

        ConsumeLoop loop = new ConsumeLoop(
                consumer, new ManualClock(1), tracking, new ConsumeLoop.Limits(4, 0, 0), sequences::distinctTotal);

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(arrivals).extracting(Arrival::seq).containsExactly(0L, 1L, 0L, 1L, 2L, 3L);
        assertThat(sequences.distinctTotal()).isEqualTo(4);
    }

    private int arrivalsScheduled;

    @Test
    void countsMalformedRecordsAndKeepsGoing() {
        consumer.schedulePollTask(() -> {
            consumer.addRecord(TestRecords.record(TOPIC, 0, 5, "garbage".getBytes(StandardCharsets.UTF_8)));
            consumer.addRecord(
                    TestRecords.record(TOPIC, 0, 6, "{\"detector\":1,\"seq\":0}".getBytes(StandardCharsets.UTF_8)));
            consumer.addRecord(TestRecords.record(TOPIC, 0, 7, TestRecords.advice(1, 0, 0, 0, 1, 1, 1)));
        });

        ConsumeLoop loop = new ConsumeLoop(consumer, new ManualClock(1), sink, new ConsumeLoop.Limits(1, 0, 0));

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(malformed).extracting(MalformedRecord::reason).containsExactly("not JSON", "missing sent_ns");
        assertThat(malformed).extracting(MalformedRecord::offset).containsExactly(5L, 6L);
        assertThat(loop.malformed()).isEqualTo(2);
        assertThat(arrivals).hasSize(1);
    }

    @Test
    void stopsWhenIdleAfterTheFirstRecordOnly() {
        // Every clock read advances 100 ms; before the first record, idleness does not count.
        ManualClock clock = new ManualClock(0, 100_000_000);
        for (int i = 0; i < 30; i++) {
            consumer.scheduleNopPollTask();
        }
        consumer.schedulePollTask(
                () -> consumer.addRecord(TestRecords.record(TOPIC, 0, 5, TestRecords.advice(1, 0, 0, 0, 1, 1, 1))));

        ConsumeLoop loop = new ConsumeLoop(consumer, clock, sink, new ConsumeLoop.Limits(0, 0, 1_000_000_000));

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.IDLE);
        assertThat(arrivals).hasSize(1);
        // 31 polls up to the record, then 10 empty polls of 100 ms each.
        long stopAt = arrivals.get(0).arrivalNs() + 1_000_000_000;
        assertThat(clock.nanos()).isGreaterThanOrEqualTo(stopAt);
    }

    @Test
    void stopsAfterTheDuration() {
        ManualClock clock = new ManualClock(0, 10_000_000);
        ConsumeLoop loop = new ConsumeLoop(consumer, clock, sink, new ConsumeLoop.Limits(0, 500_000_000, 0));

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.DURATION);
        assertThat(clock.reads()).isBetween(50, 53);
    }

    @Test
    @Timeout(10)
    void stopFromAnotherThreadEndsTheRun() throws Exception {
        ConsumeLoop loop = new ConsumeLoop(consumer, new ManualClock(0), sink, ConsumeLoop.Limits.none());
        CompletableFuture<Map<TopicPartition, Long>> ready = new CompletableFuture<>();
        CompletableFuture<ConsumeLoop.StopReason> run =
                CompletableFuture.supplyAsync(() -> loop.run(List.of(P0), ready::complete));

        ready.get(5, TimeUnit.SECONDS);
        loop.stop();

        assertThat(run.get(5, TimeUnit.SECONDS)).isEqualTo(ConsumeLoop.StopReason.INTERRUPTED);
    }

    @Test
    void stopBeforeReadyStillEndsCleanly() {
        ConsumeLoop loop = new ConsumeLoop(consumer, new ManualClock(0), sink, ConsumeLoop.Limits.none());
        loop.stop();

        assertThat(loop.run(List.of(P0), offsets -> {})).isEqualTo(ConsumeLoop.StopReason.INTERRUPTED);
    }
}
