package org.itsrt.fuzz;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.itsrt.fuzz.KafkaReadBack.Position;
import org.itsrt.fuzz.KafkaReadBack.SeenDeadLetter;
import org.itsrt.job.config.JobSettings;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;

/**
 * One submission of the job and the records sent to it: the job is started, answers a handshake
 * (a marker record that comes back as a dead letter, so its source is known to read), receives the
 * records, and everything it writes after the start is read back, {@code read_committed}, until
 * every expected record arrived or nothing more came for {@link #IDLE}. Then its state and
 * restarts are read from Flink's REST API and it is cancelled.
 *
 * <p>Lockstep: after each record the job must advise, the next is sent only once that advice
 * arrived. The route of a reading depends on every detector's latest conditions, which reach the
 * route operator on a broadcast input beside the reading itself; sent back to back, which of them
 * the route sees first would be a race, and two runs of the same readings could route differently.
 * One reading at a time, each sees the conditions of all readings before it, in both runs.
 */
final class JobRun {

    /**
     * What one run sent and got back.
     *
     * @param sent         readings-topic position -> index of the record in the run's list
     * @param sendErrors   index -> why the producer could not send it
     * @param advice       every advice record read, duplicates included
     * @param unreadable   advice records that did not parse
     * @param deadLetters  every dead letter of a record sent in this run (markers left out)
     * @param lockstepNote why lockstep was given up, or null
     */
    record Outcome(
            String name,
            Map<Position, Integer> sent,
            Map<Integer, String> sendErrors,
            List<AdviceRecord> advice,
            long unreadable,
            List<SeenDeadLetter> deadLetters,
            FlinkJobState job,
            String lockstepNote,
            Duration took) {}

    /** How long one reading's advice may take before lockstep is given up. */
    static final Duration ADVICE_TIMEOUT = Duration.ofSeconds(60);
    /** The run ends when nothing more arrived for this long. */
    static final Duration IDLE = Duration.ofSeconds(30);

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(20);

    private final RunningStack stack;
    private final KafkaEnds ends;
    private final JobSettings settings;
    private final String name;
    private final PrintStream log;

    private final List<AdviceRecord> advice = new ArrayList<>();
    private final Set<AdviceKey> adviceKeys = new HashSet<>();
    /** Advice of warm-up readings: only for lockstep, in no list or count of the outcome. */
    private final Set<AdviceKey> warmupKeys = new HashSet<>();

    private final List<SeenDeadLetter> deadLetters = new ArrayList<>();
    private long unreadable;
    private long lastArrivalNs;
    private volatile boolean stopped;

    JobRun(RunningStack stack, KafkaEnds ends, JobSettings settings, String name, PrintStream log) {
        this.stack = stack;
        this.ends = ends;
        this.settings = settings;
        this.name = name;
        this.log = log;
    }

    /** Ends the run after the current record (Ctrl-C); what arrived is still reported. */
    void stop() {
        stopped = true;
    }

    /**
     * @param warmup  valid readings flagged as warm-up records, sent first in lockstep; nothing of
     *                them is in the outcome
     * @param records the campaign's records
     */
    Outcome run(List<FuzzRecord> warmup, List<FuzzRecord> records, int largestValue) throws Exception {
        long startNs = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> adviceIn = ends.consumer();
                KafkaConsumer<byte[], byte[]> deadIn = ends.consumer();
                KafkaProducer<byte[], byte[]> producer = ends.producer(largestValue)) {
            // Only what is written after this point belongs to this run.
            KafkaReadBack.fromTheEnd(ends, adviceIn, ends.advice());
            KafkaReadBack.fromTheEnd(ends, deadIn, ends.deadLetters());
            JobClient job = stack.submit(settings, "its-rt (fuzz: " + name + ")");
            try {
                KafkaReadBack.handshake(ends, job, producer, deadIn, () -> stopped);
                FlinkJobState.prime(stack.restAddress(), job.getJobID().toHexString());
                if (!warmup.isEmpty()) {
                    log.println("its-fuzz: " + name + ": warm-up, " + warmup.size() + " flagged readings");
                    String note = send(warmup, true, producer, adviceIn, deadIn, new ArrayList<>(), System.nanoTime());
                    if (note != null) {
                        log.println("its-fuzz: " + name + ": warm-up: " + note);
                    }
                }
                long sendStartNs = System.nanoTime();
                log.println("its-fuzz: " + name + ": job " + job.getJobID() + " is live; sending " + records.size()
                        + " records");
                List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
                String lockstepNote = send(records, false, producer, adviceIn, deadIn, futures, sendStartNs);
                producer.flush();
                Map<Position, Integer> sent = new HashMap<>();
                Map<Integer, String> sendErrors = new HashMap<>();
                for (int i = 0; i < futures.size(); i++) {
                    try {
                        RecordMetadata m = futures.get(i).get(60, TimeUnit.SECONDS);
                        sent.put(new Position(m.partition(), m.offset()), i);
                    } catch (ExecutionException e) {
                        sendErrors.put(i, String.valueOf(e.getCause().getMessage()));
                    }
                }
                long expectedAdvice =
                        records.stream().filter(FuzzRecord::advised).count();
                long expectedDead = sent.values().stream()
                        .filter(i -> !records.get(i).advised())
                        .count();
                drain(adviceIn, deadIn, expectedAdvice, expectedDead, sent, records.size(), sendStartNs);
                FlinkJobState state =
                        FlinkJobState.read(stack.restAddress(), job.getJobID().toHexString());
                return new Outcome(
                        name,
                        sent,
                        sendErrors,
                        List.copyOf(advice),
                        unreadable,
                        KafkaReadBack.own(deadLetters, sent),
                        state,
                        lockstepNote,
                        Duration.ofNanos(System.nanoTime() - startNs));
            } finally {
                cancel(job);
            }
        }
    }

    /**
     * @param warmup whether these are warm-up readings, whose advice is flagged and kept apart
     * @return why lockstep was given up, or null
     */
    private String send(
            List<FuzzRecord> records,
            boolean warmup,
            KafkaProducer<byte[], byte[]> producer,
            KafkaConsumer<byte[], byte[]> adviceIn,
            KafkaConsumer<byte[], byte[]> deadIn,
            List<Future<RecordMetadata>> futures,
            long startNs) {
        String note = null;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        long expectedAdvice = records.stream().filter(FuzzRecord::advised).count();
        for (FuzzRecord record : records) {
            if (stopped) {
                return note != null ? note : "stopped (Ctrl-C) after " + futures.size() + " records";
            }
            futures.add(producer.send(new ProducerRecord<>(ends.readings(), record.key(), record.value())));
            if (record.advised() && note == null) {
                long deadline = System.nanoTime() + ADVICE_TIMEOUT.toNanos();
                AdviceKey key = new AdviceKey(record.detector(), record.seq());
                Set<AdviceKey> arrived = warmup ? warmupKeys : adviceKeys;
                while (!arrived.contains(key) && !stopped) {
                    if (System.nanoTime() > deadline) {
                        note = "the advice of detector " + record.detector() + " seq " + record.seq()
                                + " did not arrive within " + ADVICE_TIMEOUT.toSeconds()
                                + " s; the rest was sent without waiting";
                        log.println("its-fuzz: " + name + ": " + note);
                        break;
                    }
                    pollAdvice(adviceIn, POLL);
                }
            }
            if (System.nanoTime() >= nextProgress) {
                pollDeadLetters(deadIn, Duration.ZERO);
                progress(futures.size(), records.size(), expectedAdvice, startNs);
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            }
        }
        return note;
    }

    private void drain(
            KafkaConsumer<byte[], byte[]> adviceIn,
            KafkaConsumer<byte[], byte[]> deadIn,
            long expectedAdvice,
            long expectedDead,
            Map<Position, Integer> sent,
            int total,
            long startNs) {
        lastArrivalNs = System.nanoTime();
        long nextProgress = System.nanoTime();
        while (!stopped && System.nanoTime() - lastArrivalNs < IDLE.toNanos()) {
            pollAdvice(adviceIn, POLL);
            pollDeadLetters(deadIn, POLL);
            if (adviceKeys.size() >= expectedAdvice
                    && KafkaReadBack.own(deadLetters, sent).size() >= expectedDead) {
                return;
            }
            if (System.nanoTime() >= nextProgress) {
                progress(total, total, expectedAdvice, startNs);
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            }
        }
    }

    private void pollAdvice(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            lastArrivalNs = System.nanoTime();
            try {
                AdviceRecord a = RecordJson.readAdvice(r.value() == null ? new byte[0] : r.value());
                if (a.warmup()) {
                    warmupKeys.add(new AdviceKey(a.detector(), a.seq()));
                    continue;
                }
                advice.add(a);
                adviceKeys.add(new AdviceKey(a.detector(), a.seq()));
            } catch (RecordFormatException e) {
                unreadable++;
            }
        }
    }

    private void pollDeadLetters(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        if (KafkaReadBack.pollDeadLetters(consumer, timeout, Map.of(ends.readings(), deadLetters))) {
            lastArrivalNs = System.nanoTime();
        }
    }

    /** What identifies a reading's advice. */
    record AdviceKey(long detector, long seq) {}

    /** Records sent and the time at the last progress line: the ETA is at the latest rate. */
    private int sentBefore;

    private long progressBeforeNs;

    private void progress(int sent, int total, long expectedAdvice, long startNs) {
        long now = System.nanoTime();
        long sinceNs = now - (progressBeforeNs == 0 ? startNs : progressBeforeNs);
        int lately = sent - sentBefore;
        sentBefore = sent;
        progressBeforeNs = now;
        String eta = sent >= total
                ? "draining"
                : lately <= 0
                        ? "ETA unknown"
                        : String.format(Locale.ROOT, "ETA %.0f s", sinceNs / 1e9 / lately * (total - sent));
        log.printf(
                Locale.ROOT,
                "its-fuzz: %s: sent %,d/%,d, advice %,d/%,d, dead letters %,d/%,d, %s%n",
                name,
                sent,
                total,
                adviceKeys.size(),
                expectedAdvice,
                deadLetters.size(),
                total - expectedAdvice,
                eta);
    }

    private void cancel(JobClient job) {
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.println("its-fuzz: cancelling the job: " + e.getMessage());
        }
    }
}
