package org.itsrt.producers.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.junit.jupiter.api.Test;

/** The replay's schedule with a warm-up, on Kafka's own mock producer: no broker needed. */
class ReplayRunTest {

    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

    @Test
    void warmupRecordsComeFirstFlaggedOnOneScheduleWithSeqRunningOn() throws Exception {
        List<Long> detectors = ProducerRun.STUDY_DETECTORS.subList(0, 3);
        List<DetectorWindows> windows = DetectorWindows.of(CanonicalTable.read(SAMPLE), detectors);
        List<MockProducer<byte[], byte[]>> producers = Collections.synchronizedList(new ArrayList<>());
        ReplayRun run = new ReplayRun(windows, config -> mock(producers), Map.of(), "its.readings", Clocks.system());

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
        ReplayRun run = new ReplayRun(windows, config -> mock(producers), Map.of(), "its.readings", Clocks.system());

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
