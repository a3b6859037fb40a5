package org.itsrt.probe;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.clock.LatencyClock;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.arrival.ProbeConsumerSettings;
import org.itsrt.probe.arrival.RecordIntake;
import org.itsrt.probe.district.AnswerOutcomes;
import org.itsrt.probe.district.DeadLetterCounts;
import org.itsrt.probe.district.DistrictIntake;
import org.itsrt.probe.district.DistrictReport;
import org.itsrt.probe.fault.FaultAnalysis;
import org.itsrt.probe.fault.FaultFile;
import org.itsrt.probe.fault.FaultMark;
import org.itsrt.probe.fault.FaultMarks;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.RunInfo;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.WindowedSlo;
import org.itsrt.records.Workload;

/**
 * One probe run, given its consumer: consume -> stamp -> statistics and raw files -> report. The
 * command builds it with a real Kafka consumer; tests with Kafka's {@code MockConsumer}. What it
 * measures is {@link ProbeOptions#workload()}: the study's one stream into the run folder, or the
 * district workload's two streams ({@link Workload.Stream}) each into a folder of its own, with the
 * run's {@link DistrictReport} beside them.
 */
public final class ProbeRun {

    /** Written into the run folder once reading positions are known: start producers after it appears. */
    public static final String READY_FILE = "probe.ready";

    /**
     * How a run ended and what it measured.
     *
     * @param stats   the study's one stream; null for the district workload, whose streams are apart
     * @param streams the district workload's streams, each with its own statistics; empty for the study
     */
    public record Result(
            ConsumeLoop.StopReason reason, RunStats stats, Path folder, Map<Workload.Stream, RunStats> streams) {

        public Result {
            streams = streams.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(streams));
        }

        /** The study's result: one stream. */
        public Result(ConsumeLoop.StopReason reason, RunStats stats, Path folder) {
            this(reason, stats, folder, Map.of());
        }

        /** The run's outcome for the console: the latency and delivery figures per stream, the report. */
        public String outcome() {
            StringBuilder out = new StringBuilder();
            if (streams.isEmpty()) {
                out.append(figures("its-probe: ", stats)).append(System.lineSeparator());
            } else {
                streams.forEach((stream, streamStats) -> out.append(
                                figures("its-probe: " + stream.measures() + ": ", streamStats))
                        .append(System.lineSeparator()));
            }
            return out + "its-probe: report in " + folder.resolve(RunReport.SUMMARY_MD) + System.lineSeparator();
        }

        private static String figures(String prefix, RunStats stats) {
            LatencyKind kind = stats.primaryKind();
            LatencySummary s = stats.latency(kind).summary();
            SequenceTracker.DetectorCounts total = stats.sequences().total();
            WindowedSlo.Report slo = stats.slo(kind);
            return s.isEmpty()
                    ? prefix + "no measurable record arrived ("
                            + stats.malformed().total() + " malformed)"
                    : prefix
                            + String.format(
                                    Locale.ROOT,
                                    "%,d records, latency %s: p50 %s ms, p99 %s ms, p99.9 %s ms, max %s ms; "
                                            + "lost %d, dup %d, reordered %d, malformed %d; SLO violation ratio %s",
                                    s.count(),
                                    kind.label(),
                                    Decimals.ms(s.p50Ns(), 3),
                                    Decimals.ms(s.p99Ns(), 3),
                                    Decimals.ms(s.p999Ns(), 3),
                                    Decimals.ms(s.maxNs(), 3),
                                    total.lost(),
                                    total.duplicated(),
                                    total.reordered(),
                                    stats.malformed().total(),
                                    Decimals.percent(slo.ratio()));
        }
    }

    /**
     * The consumer group of a run: {@code group.id} of the consumer overrides, else a fresh group
     * named after the time and this process, so that a run never resumes another's offsets.
     */
    public static String groupId(Map<String, String> consumerOverrides) {
        return consumerOverrides.getOrDefault(
                "group.id",
                "its-probe-" + LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                        + "-" + ProcessHandle.current().pid());
    }

    /**
     * The file that shows {@code folder} already holds a probe run's report ({@code summary.json}
     * of the study, {@code streams.csv} of the district workload), null when it holds none: a run
     * must not write over another.
     */
    public static String runIn(Path folder) {
        for (String file : List.of(RunReport.SUMMARY_JSON, DistrictReport.STREAMS_CSV)) {
            if (Files.exists(folder.resolve(file))) {
                return file;
            }
        }
        return null;
    }

    private final ProbeOptions options;
    private final LatencyClock clock;
    private final PrintStream log;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final FaultMarks faults;
    /** Set once the report has taken the marks: a later mark cannot be in it. */
    private volatile boolean reported;

    private volatile ConsumeLoop loop;
    private volatile boolean stopRequested;
    /** Hears of every record as it arrives, besides the run's own statistics; null for none. */
    private volatile ArrivalSink live;
    /** True once reading positions are known; a run that ends before has failed to get ready. */
    private volatile boolean readyNow;

    public ProbeRun(ProbeOptions options, LatencyClock clock, PrintStream log) {
        this.options = options;
        this.clock = clock;
        this.log = log;
        this.faults = new FaultMarks(clock);
    }

    /**
     * Also hands every record to {@code listener} as it arrives (warm-up records too, each stream's
     * of the district workload), on the consuming thread: for a controller that acts on the
     * latency while the run goes. Set it before {@link #run}; it must be quick and must not throw.
     */
    public ProbeRun alsoTo(ArrivalSink listener) {
        this.live = listener;
        return this;
    }

    /**
     * Marks that a fault is being injected now (a process killed, a broker stopped), from any
     * thread: call it right before the fault. The report gives, per mark, the silence in arrivals
     * around it, the records delayed, the duplicates and the time until latency was back within
     * the SLO ({@link FaultAnalysis}). Marks made after the run's report was written are not in it.
     *
     * @param label what was done, e.g. {@code kill -9 taskmanager-1}
     */
    public FaultMark markFault(String label) {
        FaultMark mark = faults.mark(label);
        log.println("its-probe: fault marked: " + mark.label() + " at " + mark.at()
                + (reported ? " (after the report was written: not in it)" : ""));
        log.flush();
        return mark;
    }

    /**
     * Marks that a fault marked with {@link #markFault} is over now (the stopped broker serves
     * again), from any thread: the report then shows the window from the one to the other, and
     * the time from its end to recovery.
     *
     * @return the mark with its end
     * @throws IllegalArgumentException when {@code fault} is not a mark of this run or has ended
     */
    public FaultMark markFaultEnd(FaultMark fault) {
        FaultMark ended = faults.end(fault);
        log.println(
                "its-probe: fault over: " + ended.label() + " at " + ended.end().at()
                        + String.format(java.util.Locale.ROOT, ", %.1f s after its mark", ended.lengthNs() / 1e9)
                        + (reported ? " (after the report was written: not in it)" : ""));
        log.flush();
        return ended;
    }

    /**
     * The usual run: finds the topic's partitions, opens a Kafka consumer with the probe's settings
     * ({@link ProbeConsumerSettings#consumer}) and consumes them as {@link #run} does.
     *
     * @throws ProbeConsumerSettings.KafkaUnavailableException when the broker does not describe the topic
     *                                                 within {@code connectTimeout}
     */
    public Result runOnKafka(Duration connectTimeout, Path folder)
            throws IOException, ProbeConsumerSettings.KafkaUnavailableException {
        List<TopicPartition> partitions = new java.util.ArrayList<>();
        for (String topic : options.topics()) {
            List<TopicPartition> ofTopic = ProbeConsumerSettings.partitionsOf(
                    options.bootstrapServers(),
                    topic,
                    connectTimeout,
                    options.kafkaConfig(),
                    options.consumerOverrides());
            if (ofTopic.isEmpty()) {
                throw new ProbeConsumerSettings.KafkaUnavailableException("topic " + topic + " has no partitions");
            }
            partitions.addAll(ofTopic);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(ProbeConsumerSettings.consumer(
                options.bootstrapServers(),
                options.groupId(),
                options.fromBeginning(),
                options.kafkaConfig(),
                options.consumerOverrides()))) {
            return run(consumer, partitions, folder);
        } finally {
            // A run that failed before it was ready must not leave a waiter hanging.
            ready.countDown();
        }
    }

    /**
     * Waits until the probe knows its reading positions: records sent after this are measured.
     *
     * @return false when it was not ready within {@code timeout}
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS) && readyNow;
    }

    /**
     * Consumes {@code partitions} until a limit or {@link #stop()}, then writes the report into
     * {@code folder}. The report is written even when consuming fails; the failure is rethrown after.
     */
    public Result run(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Path folder)
            throws IOException {
        Files.createDirectories(folder);
        long epochAnchorMs = System.currentTimeMillis();
        long clockAnchorNs = clock.nanos();
        Instant[] started = {Instant.ofEpochMilli(epochAnchorMs)};
        Map<TopicPartition, Long> startOffsets = new java.util.LinkedHashMap<>();
        long recordLimit = options.limits().records();

        // One recording per measured stream: the study's in the run folder itself, the district
        // workload's each in a folder of its own, so that no figure mixes two streams.
        Map<Workload.Stream, StreamRecording> district = new EnumMap<>(Workload.Stream.class);
        StreamRecording study = null;
        AnswerOutcomes outcomes = new AnswerOutcomes();
        DeadLetterCounts deadLetters = new DeadLetterCounts();
        RecordIntake intake;
        ArrivalSink ticks;
        java.util.function.LongSupplier distinct;
        if (options.workload() == Workload.STUDY) {
            long target = recordLimit > 0 ? recordLimit : options.expected();
            study = new StreamRecording(
                    options.topic(),
                    RunInfo.DETECTOR,
                    folder,
                    options,
                    clock,
                    log,
                    "",
                    target,
                    epochAnchorMs,
                    clockAnchorNs);
            intake = RecordIntake.stamps(withLive(study.sink()));
            ticks = study.sink();
            distinct = study.stats()::measuredDistinct;
        } else {
            MeasuredDistrictTopics topics = options.districtTopics();
            district.put(
                    Workload.Stream.PREDICTIONS,
                    new StreamRecording(
                            topics.predictions(),
                            Workload.Stream.PREDICTIONS.countedPer(),
                            folder.resolve(Workload.Stream.PREDICTIONS.label()),
                            options,
                            clock,
                            log,
                            Workload.Stream.PREDICTIONS.label(),
                            options.expected(),
                            epochAnchorMs,
                            clockAnchorNs));
            district.put(
                    Workload.Stream.ROUTES,
                    new StreamRecording(
                            topics.routes(),
                            Workload.Stream.ROUTES.countedPer(),
                            folder.resolve(Workload.Stream.ROUTES.label()),
                            options,
                            clock,
                            log,
                            Workload.Stream.ROUTES.label(),
                            options.expectedRequests(),
                            epochAnchorMs,
                            clockAnchorNs));
            intake = new DistrictIntake(
                    topics,
                    withLive(district.get(Workload.Stream.PREDICTIONS).sink()),
                    withLive(district.get(Workload.Stream.ROUTES).sink()),
                    outcomes,
                    deadLetters);
            ticks = ArrivalSink.all(
                    district.values().stream().map(StreamRecording::sink).toList());
            // --records counts the measured records of both streams together.
            distinct = () -> district.values().stream()
                    .mapToLong(r -> r.stats().measuredDistinct())
                    .sum();
        }

        ConsumeLoop consumeLoop = new ConsumeLoop(consumer, clock, intake, ticks, options.limits(), distinct);
        loop = consumeLoop;
        if (stopRequested) {
            consumeLoop.stop();
        }
        ConsumeLoop.StopReason reason = null;
        RuntimeException failure = null;
        try {
            reason = consumeLoop.run(partitions, offsets -> {
                started[0] = Instant.now();
                startOffsets.putAll(offsets);
                announceReady(folder, offsets);
            });
        } catch (RuntimeException e) {
            failure = e;
        }
        Instant ended = Instant.now();
        List<StreamRecording> recordings = study != null ? List.of(study) : List.copyOf(district.values());
        for (StreamRecording recording : recordings) {
            recording.finish(clock.nanos());
        }
        IOException faultsFileFailure = readFaultsFile();
        reported = true;
        List<FaultMark> marks = faults.all();
        String stoppedBy = failure != null
                ? "error: " + failure.getMessage()
                : options.stopDescription().getOrDefault(reason, reason.name());
        for (StreamRecording recording : recordings) {
            Map<TopicPartition, Long> offsetsOfTopic = new java.util.LinkedHashMap<>();
            startOffsets.forEach((partition, offset) -> {
                if (partition.topic().equals(recording.topic())) {
                    offsetsOfTopic.put(partition, offset);
                }
            });
            long expected =
                    recording == district.get(Workload.Stream.ROUTES) ? options.expectedRequests() : options.expected();
            RunInfo info = new RunInfo(
                    recording.topic(),
                    options.bootstrapServers(),
                    options.groupId(),
                    options.fromBeginning(),
                    study != null ? startOffsets : offsetsOfTopic,
                    options.consumerOverrides(),
                    started[0],
                    ended,
                    stoppedBy,
                    clock.info().describe(),
                    expected,
                    options.faultsFile() == null ? null : options.faultsFile().toString(),
                    faultsFileFailure == null ? null : faultsFileFailure.getMessage(),
                    recording.sequenceSource());
            recording.report(marks, info);
        }
        Map<Workload.Stream, RunStats> streams = new EnumMap<>(Workload.Stream.class);
        if (study == null) {
            Map<Workload.Stream, DistrictReport.Stream> shown = new EnumMap<>(Workload.Stream.class);
            district.forEach((stream, recording) -> {
                streams.put(stream, recording.stats());
                shown.put(
                        stream,
                        new DistrictReport.Stream(
                                recording.topic(),
                                recording.stats(),
                                stream == Workload.Stream.ROUTES ? options.expectedRequests() : options.expected()));
            });
            new DistrictReport(
                            new DistrictReport.Run(
                                    options.bootstrapServers(),
                                    options.groupId(),
                                    options.fromBeginning(),
                                    started[0],
                                    ended,
                                    stoppedBy,
                                    clock.info().describe(),
                                    options.districtTopics().deadLetters(),
                                    faultsFileFailure == null ? null : faultsFileFailure.getMessage()),
                            shown,
                            outcomes,
                            deadLetters)
                    .write(folder);
        }
        if (failure != null) {
            throw failure;
        }
        if (faultsFileFailure != null) {
            throw new IOException(
                    faultsFileFailure.getMessage() + " (the report in " + folder + " leaves that file's faults out)",
                    faultsFileFailure);
        }
        return new Result(reason, study == null ? null : study.stats(), folder, streams);
    }

    /** {@code sink}, and the arrivals also to the live listener when there is one. */
    private ArrivalSink withLive(ArrivalSink sink) {
        ArrivalSink listener = live;
        if (listener == null) {
            return sink;
        }
        ArrivalSink arrivalsOnly = listener::arrived;
        return ArrivalSink.all(List.of(sink, arrivalsOnly));
    }

    /**
     * Adds the marks of the faults file, read now that the run is over (the process that injects
     * the faults writes it while the run goes). Returns why it could not be read, null when it was.
     */
    private IOException readFaultsFile() {
        if (options.faultsFile() == null) {
            return null;
        }
        try {
            for (FaultFile.Line line : FaultFile.read(options.faultsFile())) {
                faults.at(line.at(), line.label());
            }
            return null;
        } catch (java.nio.file.NoSuchFileException e) {
            return new IOException(options.faultsFile() + ": no such file", e);
        } catch (IOException e) {
            return e;
        }
    }

    private void announceReady(Path folder, Map<TopicPartition, Long> offsets) {
        String where = offsets.entrySet().stream()
                .map(e -> e.getKey().partition() + "@" + e.getValue())
                .collect(Collectors.joining(", "));
        String partitionsOf = options.workload() == Workload.STUDY
                ? options.topic() + " partitions " + where
                : options.topicsText() + " partitions "
                        + offsets.entrySet().stream()
                                .map(e -> e.getKey().topic() + ":" + e.getKey().partition() + "@" + e.getValue())
                                .collect(Collectors.joining(", "));
        log.println("its-probe: ready, reading " + partitionsOf + " (partition@offset); clock "
                + clock.info().describe());
        log.flush();
        try {
            Files.writeString(folder.resolve(READY_FILE), where + "\n");
        } catch (IOException e) {
            log.println("its-probe: cannot write " + folder.resolve(READY_FILE) + ": " + e.getMessage());
        }
        readyNow = true;
        ready.countDown();
    }

    /** Stops the run from another thread; the report is still written. */
    public void stop() {
        stopRequested = true;
        ConsumeLoop current = loop;
        if (current != null) {
            current.stop();
        }
    }
}
