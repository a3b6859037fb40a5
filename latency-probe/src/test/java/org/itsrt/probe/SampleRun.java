package org.itsrt.probe;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.stats.RunStats;

/**
 * A constructed probe run through a MockConsumer: 3 detectors, one poll every 50 ms for 10 s
 * (200 polls, 3 records each), latency from sent 2 ms except 30 ms for every record in second 7,
 * intended time 100 us before the send stamp, stages 10/400/60 us. Detector 2 loses seq 50,
 * detector 3 delivers seq 10 twice, detector 1 swaps seqs 20 and 21, and one record is garbage.
 * 600 measurable records; SLO window 1 s, SLO 20 ms, warm-up 5 s.
 */
public final class SampleRun {

    public static final long MS = 1_000_000L;
    public static final long START = 1_000_000_000_000L;
    public static final int POLLS = 200;
    public static final int RECORDS = 600;
    /** Distinct readings among them (one lost, one duplicated): where the record limit stops the run. */
    public static final int DISTINCT = 599;

    public final ManualClock clock = new ManualClock(START - 1000 * MS);
    public final ByteArrayOutputStream log = new ByteArrayOutputStream();
    public ProbeRun.Result result;

    /** Runs the sample into {@code folder}; {@code readings} sends its.readings records (no stages) instead. */
    public static SampleRun write(Path folder, boolean readings) throws Exception {
        SampleRun run = new SampleRun();
        run.run(folder, readings);
        return run;
    }

    private void run(Path folder, boolean readings) throws Exception {
        String topic = readings ? "its.readings" : "its.advice";
        TopicPartition p0 = new TopicPartition(topic, 0);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
        consumer.updateBeginningOffsets(Map.of(p0, 0L));
        consumer.updateEndOffsets(Map.of(p0, 0L));
        long[] offset = {0};
        for (int k = 0; k < POLLS; k++) {
            long arrival = START + k * 50 * MS;
            long latency = (k >= 140 && k < 160) ? 30 * MS : 2 * MS;
            int poll = k;
            consumer.schedulePollTask(() -> {
                clock.set(arrival);
                for (int detector = 1; detector <= 3; detector++) {
                    long seq = poll;
                    if (detector == 1 && poll == 20) {
                        seq = 21;
                    } else if (detector == 1 && poll == 21) {
                        seq = 20;
                    }
                    if (detector == 2 && poll == 50) {
                        continue;
                    }
                    add(consumer, topic, offset, detector, seq, arrival - latency, readings);
                    if (detector == 3 && poll == 10) {
                        add(consumer, topic, offset, detector, seq, arrival - latency, readings);
                    }
                }
                if (poll == 100) {
                    consumer.addRecord(
                            TestRecords.record(topic, 0, offset[0]++, "{oops".getBytes(StandardCharsets.UTF_8)));
                }
            });
        }
        ProbeOptions options = ProbeOptions.builder()
                .topic(topic)
                .bootstrapServers("mock:9092")
                .groupId("its-probe-test")
                .limits(new ConsumeLoop.Limits(DISTINCT, 0, 0))
                .settings(new RunStats.Settings(1000 * MS, 20 * MS, 5000 * MS))
                .expected(RECORDS)
                .progressEveryNs(500 * MS)
                .stopDescription(Map.of(ConsumeLoop.StopReason.RECORDS, "--records " + RECORDS))
                .build();
        ProbeRun run = new ProbeRun(options, clock, new PrintStream(log, true, StandardCharsets.UTF_8));
        result = run.run(consumer, List.of(p0), folder);
    }

    private static void add(
            MockConsumer<byte[], byte[]> consumer,
            String topic,
            long[] offset,
            int detector,
            long seq,
            long sent,
            boolean readings) {
        byte[] value = readings
                ? TestRecords.reading(detector, seq, sent, sent - 100_000)
                : TestRecords.advice(detector, seq, sent, sent - 100_000, 10_000, 400_000, 60_000);
        consumer.addRecord(TestRecords.record(topic, 0, offset[0]++, value));
    }

    public String log() {
        return log.toString(StandardCharsets.UTF_8);
    }
}
