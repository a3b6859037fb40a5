package org.itsrt.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RecordStamps;
import org.itsrt.records.RecordStampsReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-record codec work of the pipeline's hot path (docs/records.md), one record per call:
 * the job parses and validates a reading ({@code parseReading}, what ParseAndValidate calls) and
 * writes its advice ({@code writeAdvice}, the advice sink's serializer), a producer writes a
 * reading ({@code writeReading}) and the latency probe reads the stamps of every advice
 * ({@code readStamps}). Run with {@code -prof gc} for the bytes allocated per call
 * ({@code gc.alloc.rate.norm}), which the JVMs of the pipeline pay for at every record.
 *
 * <p>The records are what the producers and the job write: 12 integer flows, 12 speeds with one
 * decimal (one unknown, {@code null}), stamps of a nanosecond clock, a route of five detectors. A
 * seeded set of 64 cycles so that no single record's values are all the JIT sees.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecordCodecBench {

    private static final int RECORDS = 64;
    private static final long SEED = 20180301L;

    private ReadingRecord[] readings;
    private byte[][] readingBytes;
    private AdviceRecord[] advice;
    private byte[][] adviceBytes;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(SEED);
        readings = new ReadingRecord[RECORDS];
        readingBytes = new byte[RECORDS][];
        advice = new AdviceRecord[RECORDS];
        adviceBytes = new byte[RECORDS][];
        Instant ts = Instant.parse("2018-03-05T09:00:00Z");
        for (int i = 0; i < RECORDS; i++) {
            long detector = 700_000 + random.nextInt(100_000);
            double[] flow = new double[ReadingRecord.WINDOW];
            double[] speed = new double[ReadingRecord.WINDOW];
            for (int k = 0; k < ReadingRecord.WINDOW; k++) {
                flow[k] = 100 + random.nextInt(400);
                speed[k] = k == 2 ? Double.NaN : Math.round((40 + random.nextDouble() * 30) * 10) / 10.0;
            }
            long sentNs = 5_834_612_307_719L + random.nextInt(1_000_000_000);
            long intendedNs = sentNs - random.nextInt(200_000);
            long seq = random.nextInt(100_000);
            readings[i] = new ReadingRecord(detector, ts.plusSeconds(300L * i), flow, speed, seq, sentNs, intendedNs);
            readingBytes[i] = RecordJson.write(readings[i]);
            List<Long> route = new ArrayList<>();
            route.add(detector);
            for (int k = 0; k < 4; k++) {
                route.add(700_000L + random.nextInt(100_000));
            }
            advice[i] = new AdviceRecord(
                    detector,
                    seq,
                    sentNs,
                    intendedNs,
                    Math.round(flow[11] * (0.9 + random.nextDouble() * 0.2) * 10) / 10.0 + 0.05,
                    "linear",
                    route,
                    300 + random.nextDouble() * 600,
                    15_000 + random.nextInt(20_000),
                    200_000 + random.nextInt(200_000),
                    3_000 + random.nextInt(5_000));
            adviceBytes[i] = RecordJson.write(advice[i]);
        }
    }

    private int nextIndex() {
        int i = next;
        next = i + 1 == RECORDS ? 0 : i + 1;
        return i;
    }

    @Benchmark
    public ReadingRecord parseReading() throws RecordFormatException {
        return RecordJson.readReading(readingBytes[nextIndex()]);
    }

    @Benchmark
    public byte[] writeAdvice() {
        return RecordJson.write(advice[nextIndex()]);
    }

    @Benchmark
    public byte[] writeReading() {
        return RecordJson.write(readings[nextIndex()]);
    }

    @Benchmark
    public RecordStamps readStamps() throws MalformedRecordException {
        return RecordStampsReader.read(adviceBytes[nextIndex()]);
    }
}
