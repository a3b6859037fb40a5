package org.itsrt.producers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.itsrt.clock.Clocks;
import org.itsrt.clock.LatencyClock;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.producers.requests.GravityModel;
import org.itsrt.producers.requests.RequestStream;
import org.itsrt.producers.send.KafkaChecks;
import org.itsrt.producers.send.ProducerSettings;
import org.itsrt.producers.send.ReplayRun;
import org.itsrt.producers.send.RequestSource;
import org.itsrt.producers.send.RunSummary;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.StudyStation;
import org.itsrt.readings.pems.StationMetaReader;
import org.itsrt.records.Topics;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.DistrictGraph;
import org.itsrt.routing.graph.MetaGraphBuilder;

/**
 * One replay of canonical readings into Kafka, as a library: the detectors on one open-loop
 * schedule, sent by a few threads with a producer each (one per detector for the study's six),
 * every record stamped with the host's latency clock. The producer CLI and
 * the pipeline runner both use it; neither builds the other's command line.
 *
 * <p>{@link #prepare} reads the table and checks the broker and the topic, so that bad input fails
 * before anything is sent; {@link #run} sends and returns what was sent and acknowledged.
 */
public final class ProducerRun {

    /**
     * The highest rate a plan asks of one detector's producer, in records/s. The open-loop
     * schedule's period is a whole number of nanoseconds ({@code OpenLoopSchedule}): at this rate
     * (a 1 us period) rounding it moves the rate by at most 0.05 %, and beyond about 2e9 the period
     * would round to nothing.
     */
    public static final int MAX_RATE_PER_DETECTOR = 1_000_000;

    static final List<String> ACKS = List.of("all", "-1", "1", "0");

    /**
     * A plan refused: {@link #field()} names the {@link ProducerPlan} field at fault and {@link #problem()}
     * says what is wrong with its value, so that a command can name its own option for the field
     * ({@code --rate must be ...}) without checking the value again.
     */
    public static final class InvalidPlan extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final String field;
        private final String problem;

        /** A refusal of {@code field} (a plan's field, or an option of a command that builds one). */
        InvalidPlan(String field, String problem) {
            super(field + " " + problem);
            this.field = field;
            this.problem = problem;
        }

        /** The plan's field, as named in {@link ProducerPlan}: {@code ratePerDetector}, {@code records}, ... */
        public String field() {
            return field;
        }

        /** What is wrong, without the field's name: {@code must be >= 1, got 0}. */
        public String problem() {
            return problem;
        }
    }

    /**
     * Route requests sent beside the readings (the district workload, docs/producers.md, "Route
     * requests"): {@code streams} {@link RequestStream}s of one seed over the district's stations,
     * {@code perSecond} requests a second in all, open loop on a schedule of their own, sent by one
     * sender thread (and producer) per stream. They span the readings' time: a replay sends as many
     * warm-up requests, flagged, as the rate sends during the warm-up readings, then as many
     * measured ones as it sends during the measured readings ({@link #measured}, {@link #warmup}).
     *
     * @param topic       where requests go, {@link Topics#ROUTE_REQUESTS}
     * @param stationMeta the district's station metadata file (clearinghouse format), the demand model's stations
     * @param perSecond   requests per second, all streams together
     * @param seed        the demand's seed: the same seed sends the same requests
     * @param streams     request streams, each with its own {@code seq} and sender thread
     */
    public record Requests(String topic, Path stationMeta, double perSecond, long seed, int streams) {

        /** Request streams unless given: as many as the shared sender threads of the readings. */
        public static final int DEFAULT_STREAMS = ReplayRun.SHARED_SENDER_THREADS;

        public Requests {
            if (topic == null || topic.isBlank()) {
                throw new InvalidPlan("requests.topic", "must be given");
            }
            if (stationMeta == null) {
                throw new InvalidPlan("requests.stationMeta", "must be given: the district's station metadata file");
            }
            if (streams < 1) {
                throw new InvalidPlan("requests.streams", "must be >= 1, got " + streams);
            }
            if (!(perSecond > 0) || perSecond / streams > MAX_RATE_PER_DETECTOR) {
                throw new InvalidPlan(
                        "requests.perSecond",
                        "must be in (0, " + (long) MAX_RATE_PER_DETECTOR * streams + "] requests/s, got " + perSecond);
            }
        }

        /** {@link #DEFAULT_STREAMS} streams to {@link Topics#ROUTE_REQUESTS}. */
        public static Requests of(Path stationMeta, double perSecond, long seed) {
            return new Requests(Topics.ROUTE_REQUESTS, stationMeta, perSecond, seed, DEFAULT_STREAMS);
        }

        /**
         * The measured requests of a replay of {@code readings} measured readings at
         * {@code ratePerDetector} on each of {@code detectors}: what {@code perSecond} sends in
         * their time, at least one.
         */
        public static long measured(double perSecond, long readings, double ratePerDetector, int detectors) {
            return Math.max(1, warmup(perSecond, readings, ratePerDetector, detectors));
        }

        /** The warm-up requests beside {@code readings} warm-up readings: what {@code perSecond} sends in their time. */
        public static long warmup(double perSecond, long readings, double ratePerDetector, int detectors) {
            return Math.round(perSecond * readings / (ratePerDetector * detectors));
        }
    }

    /** {@link ProducerPlan#detectors()} for every detector of the table. */
    public static final List<Long> EVERY_DETECTOR = List.of();

    /**
     * The records a warm-up of {@code warmup} takes: {@code rate} records/s on each of
     * {@code detectors}, rounded to whole records per detector so every detector warms up as long.
     */
    public static long warmupRecordsOf(Duration warmup, double ratePerDetector, int detectors) {
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("the warm-up must not be negative: " + warmup);
        }
        return Math.round(warmup.toNanos() / 1e9 * ratePerDetector) * detectors;
    }

    /** The six detectors of the study, in the order of {@link StudyStation}. */
    public static final List<Long> STUDY_DETECTORS =
            Arrays.stream(StudyStation.values()).map(StudyStation::vdsId).toList();

    /** The table or a detector cannot be replayed, or Kafka is not ready for it. */
    public static final class NotReplayable extends Exception {
        private static final long serialVersionUID = 1L;

        NotReplayable(String message) {
            super(message);
        }
    }

    private final ProducerPlan plan;
    private final List<DetectorWindows> windows;
    private final GravityModel demand;
    private final LatencyClock clock;
    private final Map<String, Object> config;
    private final PrintStream log;
    private volatile ReplayRun current;
    private volatile ReplayRun currentRequests;
    private volatile RunSummary requestsSent;
    private volatile boolean stopped;

    private ProducerRun(
            ProducerPlan plan,
            List<DetectorWindows> windows,
            GravityModel demand,
            LatencyClock clock,
            PrintStream log) {
        this.plan = plan;
        this.windows = windows;
        this.demand = demand;
        this.clock = clock;
        this.config = ProducerSettings.forLatency(
                plan.bootstrapServers(), plan.acks(), plan.kafkaConfig(), plan.producerProperties());
        this.log = log;
    }

    /**
     * Reads the table, cuts each detector's windows and checks that the broker answers and the
     * topic exists.
     *
     * @throws NotReplayable naming the file, the detector, the broker or the topic at fault
     */
    public static ProducerRun prepare(ProducerPlan plan, PrintStream log) throws NotReplayable {
        List<DetectorWindows> windows;
        try {
            windows = plan.detectors().isEmpty()
                    ? DetectorWindows.readAll(plan.data())
                    : DetectorWindows.read(plan.data(), plan.detectors());
        } catch (BadInputException | IOException e) {
            throw new NotReplayable("cannot read " + plan.data() + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new NotReplayable(plan.data() + ": " + e.getMessage());
        }
        try {
            KafkaChecks.requireTopic(
                    plan.bootstrapServers(), plan.topic(), plan.kafkaConfig(), plan.producerProperties());
            if (plan.requests() != null) {
                KafkaChecks.requireTopic(
                        plan.bootstrapServers(),
                        plan.requests().topic(),
                        plan.kafkaConfig(),
                        plan.producerProperties());
            }
        } catch (IllegalStateException e) {
            throw new NotReplayable(e.getMessage());
        }
        return new ProducerRun(plan, windows, demandOf(plan.requests()), Clocks.system(), log);
    }

    /**
     * The gravity model over the stations of the core of the requests' routing graph (the job's
     * graph of the same file), its largest strongly connected set ({@link DistrictGraph#check}):
     * every pair of them has a route, so every request is one the job can answer with a route. A
     * station outside the graph (a ramp's) would be dead-lettered as unknown, and one at a
     * carriageway's end outside the core is reached but not left (or left but not reached), so a
     * request from it (or to it) is answered unreachable. Null without requests.
     */
    private static GravityModel demandOf(Requests requests) throws NotReplayable {
        if (requests == null) {
            return null;
        }
        Path meta = requests.stationMeta();
        try {
            DetectorGraph graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(meta);
            Set<Long> core = DistrictGraph.check(graph).core().stream()
                    .map(Detector::vdsId)
                    .collect(Collectors.toSet());
            return GravityModel.of(StationMetaReader.read(meta).values().stream()
                    .filter(station -> core.contains(station.id()))
                    .toList());
        } catch (BadInputException | IOException e) {
            throw new NotReplayable("cannot read " + meta + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new NotReplayable(meta + ": " + e.getMessage());
        }
    }

    /**
     * The route requests of a plan as sources of the open-loop schedule, one per stream, made at
     * {@code wallClock}'s instants.
     */
    public static List<RequestSource> requestSources(Requests requests, GravityModel demand, Clock wallClock) {
        List<RequestSource> sources = new ArrayList<>(requests.streams());
        for (int stream = 0; stream < requests.streams(); stream++) {
            sources.add(
                    new RequestSource(RequestStream.of(demand, requests.seed(), stream), requests.topic(), wallClock));
        }
        return sources;
    }

    public ProducerPlan plan() {
        return plan;
    }

    /** The producer properties in force: the latency defaults with the plan's overrides. */
    public Map<String, Object> producerConfig() {
        return config;
    }

    public LatencyClock clock() {
        return clock;
    }

    /** Sends the plan's records at its rate; returns after every producer is flushed and closed. */
    public RunSummary run() throws InterruptedException {
        return replay(plan.ratePerDetector(), plan.records(), plan.warmupRecords());
    }

    /**
     * One step of a rate sweep: {@code total} records at {@code ratePerDetector} records/s on each
     * detector.
     */
    public RunSummary replay(double ratePerDetector, long total) throws InterruptedException {
        return replay(ratePerDetector, total, 0);
    }

    /**
     * {@code warmup} flagged warm-up records, then {@code total} measured ones, at
     * {@code ratePerDetector} records/s on each detector, on one open-loop schedule. The rate is
     * per detector here as in the plan and the schedule, so that it reaches the schedule as given,
     * not multiplied by the detectors and divided again.
     */
    public RunSummary replay(double ratePerDetector, long total, long warmup) throws InterruptedException {
        if (plan.requests() == null) {
            return replayReadings(ratePerDetector, total, warmup);
        }
        // The requests on their own schedule and threads, beside the readings, ending on their own.
        Requests requests = plan.requests();
        ReplayRun requestRun = new ReplayRun(
                requestSources(requests, demand, Clock.systemUTC()),
                requests.streams(),
                KafkaProducer::new,
                config,
                clock);
        requestRun.loadStep(plan.loadStep());
        currentRequests = requestRun;
        if (stopped) {
            requestRun.stop();
        }
        double perStream = requests.perSecond() / requests.streams();
        long requestsMeasured = Requests.measured(requests.perSecond(), total, ratePerDetector, windows.size());
        long requestWarmup = Requests.warmup(requests.perSecond(), warmup, ratePerDetector, windows.size());
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread sender = new Thread(
                () -> {
                    try {
                        requestRun.run(
                                perStream,
                                ReplayRun.share(requestWarmup, requests.streams()),
                                ReplayRun.share(requestsMeasured, requests.streams()),
                                Duration.ofDays(1),
                                stats -> {});
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        failed.set(e);
                    }
                },
                "requests");
        sender.start();
        RunSummary readings;
        try {
            readings = replayReadings(ratePerDetector, total, warmup);
        } finally {
            sender.join();
        }
        if (failed.get() != null) {
            throw new IllegalStateException(
                    "sending route requests failed: " + failed.get().getMessage(), failed.get());
        }
        requestsSent = RunSummary.of(
                requestRun.stats(), requests.streams(), perStream, requestWarmup + requestsMeasured, requestWarmup);
        return readings;
    }

    /** What the last replay sent of the plan's route requests; null when it has none or none was run. */
    public RunSummary requestsSent() {
        return requestsSent;
    }

    private RunSummary replayReadings(double ratePerDetector, long total, long warmup) throws InterruptedException {
        ReplayRun run = ReplayRun.ofDetectors(
                        windows, plan.topic(), plan.senderThreads(), KafkaProducer::new, config, clock)
                .loadStep(plan.loadStep());
        current = run;
        if (stopped) {
            run.stop();
        }
        long[] quota = ReplayRun.share(total, windows.size());
        long[] warmupQuota = ReplayRun.share(warmup, windows.size());
        SendProgress progress = new SendProgress(warmup + total, warmup, System.nanoTime(), log);
        Duration every = plan.progressEvery().isZero() ? Duration.ofDays(1) : plan.progressEvery();
        run.run(ratePerDetector, warmupQuota, quota, every, progress::print);
        current = null;
        return RunSummary.of(run.stats(), windows.size(), ratePerDetector, warmup + total, warmup);
    }

    /** Number of detectors replayed. */
    public int detectors() {
        return windows.size();
    }

    /** Stops the replay after each sender's current record (Ctrl-C); what was sent is still flushed. */
    public void stop() {
        stopped = true;
        ReplayRun run = current;
        if (run != null) {
            run.stop();
        }
        ReplayRun requests = currentRequests;
        if (requests != null) {
            requests.stop();
        }
    }

    /** The Markdown report of a replay, with its route requests' when it sent some. */
    public String markdown(RunSummary summary) {
        String readings = summary.markdown(
                plan.topic(), plan.bootstrapServers(), plan.data(), clock.info().describe(), config);
        RunSummary requests = requestsSent;
        if (requests == null) {
            return readings;
        }
        return readings + "\n"
                + requests.markdown(
                        plan.requests().topic(),
                        plan.bootstrapServers(),
                        plan.requests().stationMeta(),
                        clock.info().describe(),
                        config);
    }
}
