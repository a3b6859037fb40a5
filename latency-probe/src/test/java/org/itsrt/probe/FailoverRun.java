package org.itsrt.probe;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.stats.RunStats;

/**
 * A constructed failover through a MockConsumer, on a clock that starts at {@link #START} when the
 * probe is made. One poll every 50 ms from 1 s on, one record of each of 2 detectors per poll,
 * latency from sent 2 ms (intended 100 us before sent):
 *
 * <ul>
 *   <li>polls 0-39 (1.00-2.95 s): seqs 0-39;</li>
 *   <li>at 3.00 s the test marks {@link #KILL} through {@link ProbeRun#markFault}; nothing arrives
 *       until 6.00 s; at 5.50 s it marks the kill over ({@link ProbeRun#markFaultEnd}: the
 *       TaskManager is back);</li>
 *   <li>polls 100-119 (6.00-6.95 s): the job replays from a checkpoint at seq 30: seqs 30-39 again
 *       (10 duplicates per detector), then 40-49, each as late as its send was long ago;</li>
 *   <li>polls 120-199 (7.00-10.95 s): seqs 50-129 on time;</li>
 *   <li>the faults file, written by "another process" before the run, marks {@link #STOP} at
 *       {@link #STOP_AFTER_S} s after the probe was made, on the wall clock: between two polls, so
 *       that the few milliseconds the wall clock moves while the probe is made do not matter.</li>
 * </ul>
 * SLO window 1 s, SLO 20 ms, warm-up 0.
 */
public final class FailoverRun {

    public static final long MS = 1_000_000L;
    public static final long START = 2_000_000_000_000L;
    public static final String KILL = "kill -9 taskmanager-1";
    public static final String STOP = "stop broker 1";
    public static final double STOP_AFTER_S = 9.525;
    /** Distinct readings of the two detectors (seqs 0-129): the record limit counts each once. */
    public static final int RECORDS = 2 * 130;

    public final ManualClock clock = new ManualClock(START);
    public final ByteArrayOutputStream log = new ByteArrayOutputStream();
    public ProbeRun.Result result;

    /** Arrival of poll {@code k}. */
    public static long arrival(int k) {
        return START + 1000 * MS + k * 50 * MS;
    }

    /** Send stamp of {@code seq} up to 49: 2 ms before poll {@code seq}, where it would have arrived on time. */
    public static long sent(long seq) {
        return arrival((int) seq) - 2 * MS;
    }

    /** Runs the failover into {@code folder}; {@code faultsFile} holds what the file says (null: no file). */
    public static FailoverRun write(Path folder, String faultsFile) throws Exception {
        return write(folder, faultsFile, true);
    }

    /** As {@link #write(Path, String)}; {@code markKill} false leaves the kill unmarked: nobody said. */
    public static FailoverRun write(Path folder, String faultsFile, boolean markKill) throws Exception {
        FailoverRun run = new FailoverRun();
        run.run(folder, faultsFile, markKill);
        return run;
    }

    private void run(Path folder, String faultsText, boolean markKill) throws Exception {
        String topic = "its.advice";
        TopicPartition p0 = new TopicPartition(topic, 0);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
        consumer.updateBeginningOffsets(Map.of(p0, 0L));
        consumer.updateEndOffsets(Map.of(p0, 0L));
        Path faultsFile = null;
        if (faultsText != null) {
            Files.createDirectories(folder);
            faultsFile = folder.resolveSibling(folder.getFileName() + "-faults.csv");
        }
        ProbeOptions options = ProbeOptions.builder()
                .topic(topic)
                .bootstrapServers("mock:9092")
                .groupId("its-probe-test")
                .limits(new ConsumeLoop.Limits(RECORDS, 0, 0))
                .settings(new RunStats.Settings(1000 * MS, 20 * MS, 0))
                .expected(RECORDS)
                .stopDescription(Map.of(ConsumeLoop.StopReason.RECORDS, "--records " + RECORDS))
                .faultsFile(faultsFile)
                .build();
        long madeAtMs = System.currentTimeMillis();
        ProbeRun probe = new ProbeRun(options, clock, new PrintStream(log, true, StandardCharsets.UTF_8));
        if (faultsText != null) {
            long stopAt = madeAtMs + Math.round(STOP_AFTER_S * 1000);
            Files.writeString(faultsFile, faultsText.replace("STOP_MS", Long.toString(stopAt)));
        }
        long[] offset = {0};
        org.itsrt.probe.fault.FaultMark[] kill = {null};
        for (int k = 0; k < 200; k++) {
            int poll = k;
            consumer.schedulePollTask(() -> {
                clock.set(arrival(poll));
                if (poll == 40 && markKill) {
                    kill[0] = probe.markFault(KILL);
                }
                if (poll == 90 && kill[0] != null) {
                    probe.markFaultEnd(kill[0]);
                }
                long seq;
                if (poll < 40) {
                    seq = poll;
                } else if (poll < 100) {
                    return;
                } else {
                    seq = poll - 70;
                }
                // The replayed records were sent long ago; from poll 120 on, records are on time.
                long sent = poll < 120 ? sent(seq) : arrival(poll) - 2 * MS;
                for (int detector = 1; detector <= 2; detector++) {
                    consumer.addRecord(TestRecords.record(
                            topic,
                            0,
                            offset[0]++,
                            TestRecords.advice(detector, seq, sent, sent - 100_000, 10_000, 400_000, 60_000)));
                }
            });
        }
        result = probe.run(consumer, List.of(p0), folder);
    }

    public String log() {
        return log.toString(StandardCharsets.UTF_8);
    }
}
