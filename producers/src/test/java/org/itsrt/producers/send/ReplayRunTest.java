package org.itsrt.producers.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.clock.Clocks;
import org.itsrt.producers.ProducerRun;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.junit.jupiter.api.Test;

/** The replay's schedule with a warm-up, on Kafka's own mock producer: no broker needed. */
class ReplayRunTest {

    private static final Instant T0 = Instant.parse("2018-03-01T08:00:00Z");

    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

    @Test
    void warmupRecordsComeFirstFlaggedOnOneScheduleWithSeqRunningOn() throws Exception {
        List<Long> detectors = ProducerRun.STUDY_DETECTORS.subList(0, 3);
        List<DetectorWindows> windows = DetectorWindows.of(CanonicalTable.read(SAMPLE), detectors);
        List<MockProducer<byte[], byte[]>> producers = Collections.synchronizedList(new ArrayList<>());
        ReplayRun run =
                ReplayRun.ofDetectors(windows, "its.readings", 0, config -> mock(producers), Map.of(), Clocks.system());

        // 7 warm-up and 8 measured records over 3 detectors: 3/2/2 and 3/3/2.
        run.run(200, ReplayRun.share(7, 3), ReplayRun.share(8, 3), Duration.ofSeconds(10), stats -> {});

        assertThat(run.stats().sent()).isEqualTo(15);
        assertThat(run.stats().warmupSent()).isEqualTo(7);
        Map<Long, List<ReadingRecord>> byDetector = new TreeMap<>();
        for (ProducerRecord<byte[], byte[]> record : history(producers)) {
            ReadingRecord r = RecordJson.readReading(record.value());
            byDetector.computeIfAbsent(r.detector(), k -> new ArrayList<>()).add(r);
        }
        long[] warmups = ReplayRun.share(7, 3);
        long[] measured = ReplayRun.share(8, 3);
        long period = Math.round(1e9 / 200);
        for (int i = 0; i < detectors.size(); i++) {
            List<ReadingRecord> records = byDetector.get(detectors.get(i));
            assertThat(records).hasSize((int) (warmups[i] + measured[i]));
            for (int k = 0; k < records.size(); k++) {
                ReadingRecord r = records.get(k);
                assertThat(r.seq()).as("seq runs on from the warm-up").isEqualTo(k);
                assertThat(r.warmup())
                        .as("record %d of %d", k, detectors.get(i))
                        .isEqualTo(k < warmups[i]);
                assertThat(r.intendedNs() - records.get(0).intendedNs())
                        .as("one continuous open-loop schedule")
                        .isEqualTo(k * period);
            }
        }
        RunSummary summary = RunSummary.of(run.stats(), 3, 200, 15, 7);
        assertThat(summary.markdown("t", "b", SAMPLE, "c", Map.of()))
                .contains("15 of 15 records sent")
                .contains("of which warm-up 7 of 7 (flagged, first), measured 8 of 8");
    }

    @Test
    void withoutAWarmupNoRecordIsFlagged() throws Exception {
        List<DetectorWindows> windows =
                DetectorWindows.of(CanonicalTable.read(SAMPLE), ProducerRun.STUDY_DETECTORS.subList(0, 2));
        List<MockProducer<byte[], byte[]>> producers = Collections.synchronizedList(new ArrayList<>());
        ReplayRun run =
                ReplayRun.ofDetectors(windows, "its.readings", 0, config -> mock(producers), Map.of(), Clocks.system());

        run.run(200, new long[] {2, 2}, Duration.ofSeconds(10), stats -> {});

        List<ProducerRecord<byte[], byte[]>> sent = history(producers);
        assertThat(sent).hasSize(4);
        for (ProducerRecord<byte[], byte[]> record : sent) {
            assertThat(RecordJson.readReading(record.value()).warmup()).isFalse();
        }
        assertThat(run.stats().warmupSent()).isZero();
        assertThat(RunSummary.of(run.stats(), 2, 200, 4).markdown("t", "b", SAMPLE, "c", Map.of()))
                .doesNotContain("warm-up");
    }

    @Test
    void manyDetectorsShareAFewThreadsEachSendingItsSliceInScheduleOrder() throws Exception {
        int n = 500;
        int threads = 4;
        long perDetector = 4; // a few periods: one warm-up record, then three measured ones
        List<Long> detectors = new ArrayList<>();
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long detector = 400_000 + i;
            detectors.add(detector);
            for (int r = 0; r < ReadingRecord.WINDOW + 1; r++) { // two windows each
                readings.add(new Reading(
                        detector,
                        T0.plus(Reading.INTERVAL.multipliedBy(r)),
                        i + r,
                        60.0,
                        null,
                        3,
                        Reading.syntheticSource(1)));
            }
        }
        List<DetectorWindows> windows = DetectorWindows.of(readings, detectors);
        List<MockProducer<byte[], byte[]>> producers = Collections.synchronizedList(new ArrayList<>());
        ReplayRun run = ReplayRun.ofDetectors(
                windows, "its.readings", threads, config -> mock(producers), Map.of(), Clocks.system());
        assertThat(run.senderThreads()).isEqualTo(threads);

        double rate = 100;
        run.run(
                rate,
                ReplayRun.share(n, n),
                ReplayRun.share(n * (perDetector - 1), n),
                Duration.ofSeconds(10),
                stats -> {});

        assertThat(producers).as("one producer per thread").hasSize(threads);
        assertThat(run.stats().sent()).isEqualTo(n * perDetector);
        assertThat(run.stats().acked()).isEqualTo(n * perDetector);
        long period = Math.round(1e9 / rate);
        long start = Long.MAX_VALUE;
        Map<Long, List<ReadingRecord>> byDetector = new TreeMap<>();
        for (int t = 0; t < threads; t++) {
            long previous = Long.MIN_VALUE;
            for (ProducerRecord<byte[], byte[]> record : producers.get(t).history()) {
                ReadingRecord r = RecordJson.readReading(record.value());
                assertThat(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8))
                        .as("keyed by detector")
                        .isEqualTo(Long.toString(r.detector()));
                assertThat(r.intendedNs())
                        .as("a thread sends in the order of intended times")
                        .isGreaterThanOrEqualTo(previous);
                previous = r.intendedNs();
                start = Math.min(start, r.intendedNs());
                byDetector.computeIfAbsent(r.detector(), k -> new ArrayList<>()).add(r);
            }
        }
        assertThat(byDetector).hasSize(n);
        for (int i = 0; i < n; i++) {
            List<ReadingRecord> records = byDetector.get(detectors.get(i));
            assertThat(records).extracting(ReadingRecord::seq).containsExactly(0L, 1L, 2L, 3L);
            assertThat(records).extracting(ReadingRecord::warmup).containsExactly(true, false, false, false);
            for (ReadingRecord r : records) {
                assertThat(r.intendedNs() - start)
                        .as("detector %d record %d: offset i/n of a period", i, r.seq())
                        .isEqualTo(period * i / n + r.seq() * period);
                assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.intendedNs());
                assertThat(r.flow()[0]).as("window seq mod 2").isEqualTo(i + r.seq() % 2);
            }
        }
    }

    @Test
    void theDefaultIsAThreadPerDetectorUpToSixAndFourBeyond() {
        assertThat(ReplayRun.defaultSenderThreads(1)).isEqualTo(1);
        assertThat(ReplayRun.defaultSenderThreads(6)).isEqualTo(6);
        assertThat(ReplayRun.defaultSenderThreads(7)).isEqualTo(4);
        assertThat(ReplayRun.defaultSenderThreads(4800)).isEqualTo(4);
    }

    /** A mock producer that acknowledges every send at once, kept in {@code producers}. */
    private static MockProducer<byte[], byte[]> mock(List<MockProducer<byte[], byte[]>> producers) {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        producers.add(producer);
        return producer;
    }

    private static List<ProducerRecord<byte[], byte[]>> history(List<MockProducer<byte[], byte[]>> producers) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        producers.forEach(p -> records.addAll(p.history()));
        return records;
    }
}
