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
import org.itsrt.fuzz.JobRun.AdviceKey;
import org.itsrt.fuzz.KafkaReadBack.Position;
import org.itsrt.fuzz.KafkaReadBack.SeenDeadLetter;
import org.itsrt.job.config.JobSettings;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.Topics;

/**
 * One submission of the district job and the campaign's two streams sent to it: as {@link JobRun}
 * (a handshake first, everything written after the start read back {@code read_committed}, the
 * job's state and restarts read, the job cancelled), with readings on the readings topic answered
 * by predictions and route requests on the requests topic answered by routes.
 *
 * <p>Lockstep: after a reading the job must predict, the next record goes once its prediction
 * arrived; after a request it must answer, once its answer arrived. A prediction's cost update
 * reaches the routers on a broadcast beside the requests, so even in lockstep an answer may be
 * computed one update earlier or later than in another run: the answer's {@code network_version}
 * says which, and {@link DistrictCampaignResult} compares routes exactly only where it is the same.
 */
final class DistrictJobRun {

    /** What identifies a request's answer: the probe's identity of it too. */
    record RequestKey(int stream, long seq) {}

    /**
     * What one run sent and got back.
     *
     * @param readingsSent readings-topic position -> index in the run's readings
     * @param requestsSent requests-topic position -> index in the run's requests
     * @param notSent      records the producer could not send, with why (the first few)
     * @param predictions  every prediction read, duplicates included, warm-up ones left out
     * @param routes       every answer read, duplicates included
     * @param unreadable   predictions or answers that did not parse
     * @param readingDeadLetters dead letters of readings sent in this run
     * @param requestDeadLetters dead letters of requests sent in this run
     */
    record Outcome(
            String name,
            Map<Position, Integer> readingsSent,
            Map<Position, Integer> requestsSent,
            List<String> notSent,
            List<PredictionRecord> predictions,
            List<RouteRecord> routes,
            long unreadable,
            List<SeenDeadLetter> readingDeadLetters,
            List<SeenDeadLetter> requestDeadLetters,
            FlinkJobState job,
            String lockstepNote,
            Duration took) {}

    /** One record to send: a reading (index into the readings) or a request (into the requests). */
    record Item(boolean request, int index, byte[] key, byte[] value, Object awaited) {}

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

    private final RunningStack stack;
    private final KafkaEnds ends;
    private final JobSettings settings;
    private final String name;
    private final PrintStream log;

    private final List<PredictionRecord> predictions = new ArrayList<>();
    private final List<RouteRecord> routes = new ArrayList<>();
    private final Set<Object> arrived = new HashSet<>();
    private final List<SeenDeadLetter> readingLetters = new ArrayList<>();
    private final List<SeenDeadLetter> requestLetters = new ArrayList<>();
    private long unreadable;
    private long lastArrivalNs;
    private volatile boolean stopped;

    DistrictJobRun(RunningStack stack, KafkaEnds ends, JobSettings settings, String name, PrintStream log) {
        this.stack = stack;
        this.ends = ends;
        this.settings = settings;
        this.name = name;
        this.log = log;
    }

    void stop() {
        stopped = true;
    }

    /**
     * @param warmup valid readings flagged as warm-up records, sent first in lockstep; nothing of
     *               them is in the outcome
     * @param items  the campaign's readings and requests, in send order
     */
    Outcome run(List<FuzzRecord> warmup, List<Item> items, int largestValue) throws Exception {
        long startNs = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> answersIn = ends.consumer();
                KafkaConsumer<byte[], byte[]> deadIn = ends.consumer();
                KafkaProducer<byte[], byte[]> producer = ends.producer(largestValue)) {
            KafkaReadBack.fromTheEnd(ends, answersIn, Topics.PREDICTIONS, Topics.ROUTES);
            KafkaReadBack.fromTheEnd(ends, deadIn, ends.deadLetters());
            JobClient job = stack.submit(settings, "its-rt (fuzz, district: " + name + ")");
            try {
                KafkaReadBack.handshake(ends, job, producer, deadIn, () -> stopped);
                FlinkJobState.prime(stack.restAddress(), job.getJobID().toHexString());
                List<Item> warm = new ArrayList<>();
                for (FuzzRecord r : warmup) {
                    warm.add(new Item(false, -1, r.key(), r.value(), new WarmupKey(r.detector(), r.seq())));
                }
                if (!warm.isEmpty()) {
                    log.println("its-fuzz: " + name + ": warm-up, " + warm.size() + " flagged readings");
                    send(warm, producer, answersIn, deadIn, new ArrayList<>(), System.nanoTime());
                }
                log.println("its-fuzz: " + name + ": job " + job.getJobID() + " is live; sending " + items.size()
                        + " records");
                long sendStartNs = System.nanoTime();
                List<Future<RecordMetadata>> futures = new ArrayList<>(items.size());
                String note = send(items, producer, answersIn, deadIn, futures, sendStartNs);
                producer.flush();
                Map<Position, Integer> readingsSent = new HashMap<>();
                Map<Position, Integer> requestsSent = new HashMap<>();
                List<String> notSent = new ArrayList<>();
                for (int i = 0; i < futures.size(); i++) {
                    Item item = items.get(i);
                    try {
                        RecordMetadata m = futures.get(i).get(60, TimeUnit.SECONDS);
                        (item.request() ? requestsSent : readingsSent)
                                .put(new Position(m.partition(), m.offset()), item.index());
                    } catch (ExecutionException e) {
                        notSent.add((item.request() ? "request " : "reading ") + item.index() + ": "
                                + e.getCause().getMessage());
                    }
                }
                long expectedAnswers =
                        items.stream().filter(i -> i.awaited() != null).count();
                long expectedDead = items.size() - expectedAnswers - notSent.size();
                drain(answersIn, deadIn, expectedAnswers, expectedDead, readingsSent, requestsSent);
                FlinkJobState state =
                        FlinkJobState.read(stack.restAddress(), job.getJobID().toHexString());
                return new Outcome(
                        name,
                        readingsSent,
                        requestsSent,
                        notSent,
                        List.copyOf(predictions),
                        List.copyOf(routes),
                        unreadable,
                        KafkaReadBack.own(readingLetters, readingsSent),
                        KafkaReadBack.own(requestLetters, requestsSent),
                        state,
                        note,
                        Duration.ofNanos(System.nanoTime() - startNs));
            } finally {
                try {
                    job.cancel().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    log.println("its-fuzz: cancelling the job: " + e.getMessage());
                }
            }
        }
    }

    /** A warm-up reading's prediction, kept apart from the campaign's. */
    private record WarmupKey(long detector, long seq) {}

    /** @return why lockstep was given up, or null */
    private String send(
            List<Item> items,
            KafkaProducer<byte[], byte[]> producer,
            KafkaConsumer<byte[], byte[]> answersIn,
            KafkaConsumer<byte[], byte[]> deadIn,
            List<Future<RecordMetadata>> futures,
            long startNs) {
        String note = null;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        for (Item item : items) {
            if (stopped) {
                return note != null ? note : "stopped (Ctrl-C) after " + futures.size() + " records";
            }
            String topic = item.request() ? Topics.ROUTE_REQUESTS : ends.readings();
            futures.add(producer.send(new ProducerRecord<>(topic, item.key(), item.value())));
            if (item.awaited() != null && note == null) {
                long deadline = System.nanoTime() + JobRun.ADVICE_TIMEOUT.toNanos();
                while (!arrived.contains(item.awaited()) && !stopped) {
                    if (System.nanoTime() > deadline) {
                        note = "the answer to " + item.awaited() + " did not arrive within "
                                + JobRun.ADVICE_TIMEOUT.toSeconds() + " s; the rest was sent without waiting";
                        log.println("its-fuzz: " + name + ": " + note);
                        break;
                    }
                    pollAnswers(answersIn, POLL);
                }
            }
            if (System.nanoTime() >= nextProgress) {
                pollDeadLetters(deadIn, Duration.ZERO);
                progress(futures.size(), items.size(), startNs);
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            }
        }
        return note;
    }

    private void drain(
            KafkaConsumer<byte[], byte[]> answersIn,
            KafkaConsumer<byte[], byte[]> deadIn,
            long expectedAnswers,
            long expectedDead,
            Map<Position, Integer> readingsSent,
            Map<Position, Integer> requestsSent) {
        lastArrivalNs = System.nanoTime();
        while (!stopped && System.nanoTime() - lastArrivalNs < JobRun.IDLE.toNanos()) {
            pollAnswers(answersIn, POLL);
            pollDeadLetters(deadIn, POLL);
            long answers = predictions.size() + routes.size();
            long dead = KafkaReadBack.own(readingLetters, readingsSent).size()
                    + KafkaReadBack.own(requestLetters, requestsSent).size();
            if (answers >= expectedAnswers && dead >= expectedDead) {
                return;
            }
        }
    }

    private void pollAnswers(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            lastArrivalNs = System.nanoTime();
            byte[] value = r.value() == null ? new byte[0] : r.value();
            try {
                if (r.topic().equals(Topics.ROUTES)) {
                    RouteRecord answer = RouteRecordJson.readRoute(value);
                    routes.add(answer);
                    arrived.add(new RequestKey(answer.stream(), answer.seq()));
                } else {
                    PredictionRecord p = RecordJson.readPrediction(value);
                    if (p.warmup()) {
                        arrived.add(new WarmupKey(p.detector(), p.seq()));
                        continue;
                    }
                    predictions.add(p);
                    arrived.add(new AdviceKey(p.detector(), p.seq()));
                }
            } catch (RecordFormatException e) {
                unreadable++;
            }
        }
    }

    private void pollDeadLetters(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        Map<String, List<SeenDeadLetter>> bySource =
                Map.of(ends.readings(), readingLetters, Topics.ROUTE_REQUESTS, requestLetters);
        if (KafkaReadBack.pollDeadLetters(consumer, timeout, bySource)) {
            lastArrivalNs = System.nanoTime();
        }
    }

    private void progress(int sent, int total, long startNs) {
        double seconds = (System.nanoTime() - startNs) / 1e9;
        log.printf(
                Locale.ROOT,
                "its-fuzz: %s: sent %,d/%,d, predictions %,d, answers %,d, dead letters %,d + %,d, %.0f s%n",
                name,
                sent,
                total,
                predictions.size(),
                routes.size(),
                readingLetters.size(),
                requestLetters.size(),
                seconds);
    }
}
