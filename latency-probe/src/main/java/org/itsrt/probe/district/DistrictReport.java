package org.itsrt.probe.district;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.MarkdownTable;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.WindowedSlo;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.Workload;

/**
 * The district run's own files in the run folder, beside each stream's folder (which holds the
 * study's files for that stream alone): {@code summary.md}, one row per stream and the answers by
 * outcome, {@code streams.csv} and {@code outcomes.csv}, the same numbers for scripts.
 */
public final class DistrictReport {

    public static final String STREAMS_CSV = "streams.csv";
    public static final String OUTCOMES_CSV = "outcomes.csv";

    /** {@code streams.csv}'s columns; latencies are the stream's primary latency, in ms. */
    public static final String STREAMS_HEADER = "stream,measures,topic,measured,warmup,malformed,lost,duplicated,"
            + "reordered,dead_letters,lost_dead_lettered,expected,shortfall,latency,p50_ms,p99_ms,p999_ms,max_ms,slo_violation_ratio";

    /** {@code outcomes.csv}'s columns; latencies from the intended send time when answers carry one, in ms. */
    public static final String OUTCOMES_HEADER = "outcome,answers,warmup,measured,latency,p50_ms,p99_ms,p999_ms,max_ms";

    /**
     * One stream as the report shows it.
     *
     * @param topic    the topic its records arrived on
     * @param stats    its statistics
     * @param expected the measured records its producers announced, 0 when not told
     */
    public record Stream(String topic, RunStats stats, long expected) {}

    /**
     * What the report says about the run itself.
     *
     * @param deadLetters the dead letters' topic, null when not read
     */
    public record Run(
            String bootstrapServers,
            String groupId,
            boolean fromBeginning,
            Instant started,
            Instant ended,
            String stoppedBy,
            String clock,
            String deadLetters,
            String faultsFileError) {}

    private final Run run;
    private final Map<Workload.Stream, Stream> streams;
    private final AnswerOutcomes outcomes;
    private final DeadLetterCounts deadLetters;

    /** @param streams every {@link Workload.Stream}'s */
    public DistrictReport(
            Run run, Map<Workload.Stream, Stream> streams, AnswerOutcomes outcomes, DeadLetterCounts deadLetters) {
        for (Workload.Stream s : Workload.DISTRICT.streams()) {
            if (!streams.containsKey(s)) {
                throw new IllegalArgumentException("stream " + s.label() + " missing");
            }
        }
        this.run = run;
        this.streams = Map.copyOf(streams);
        this.outcomes = outcomes;
        this.deadLetters = deadLetters;
    }

    /** Writes the run's files into {@code dir}, which holds the streams' folders. */
    public void write(Path dir) throws IOException {
        Files.writeString(dir.resolve(RunReport.SUMMARY_MD), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(STREAMS_CSV), streamsCsv(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(OUTCOMES_CSV), outcomesCsv(), StandardCharsets.UTF_8);
    }

    String streamsCsv() {
        StringBuilder csv = new StringBuilder(STREAMS_HEADER).append('\n');
        for (Workload.Stream s : Workload.DISTRICT.streams()) {
            Stream stream = streams.get(s);
            RunStats stats = stream.stats();
            LatencyKind kind = stats.primaryKind();
            LatencySummary latency = stats.latency(kind).summary();
            SequenceTracker.DetectorCounts total = stats.sequences().total();
            double ratio = stats.slo(kind).ratio();
            csv.append(String.join(
                            ",",
                            s.label(),
                            s.measures(),
                            stream.topic(),
                            Long.toString(stats.records()),
                            Long.toString(stats.warmupRecords()),
                            Long.toString(stats.malformed().total()),
                            Long.toString(total.lost()),
                            Long.toString(total.duplicated()),
                            Long.toString(total.reordered()),
                            Long.toString(deadLetters.total(s)),
                            Long.toString(deadLetters.lostOfThem(s, stats.sequences())),
                            stream.expected() > 0 ? Long.toString(stream.expected()) : "",
                            stream.expected() > 0 ? Long.toString(stats.shortfall(stream.expected())) : "",
                            kind.key(),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p50Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p99Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p999Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.maxNs()),
                            Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.6f", ratio)))
                    .append('\n');
        }
        return csv.toString();
    }

    String outcomesCsv() {
        LatencyKind kind = answersKind();
        StringBuilder csv = new StringBuilder(OUTCOMES_HEADER).append('\n');
        for (RouteOutcome outcome : RouteOutcome.values()) {
            AnswerOutcomes.Counts counts = outcomes.of(outcome);
            LatencySummary latency = counts.latency(kind).summary();
            csv.append(String.join(
                            ",",
                            outcome.wire(),
                            Long.toString(counts.answers()),
                            Long.toString(counts.warmup()),
                            Long.toString(counts.answers() - counts.warmup()),
                            kind.key(),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p50Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p99Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.p999Ns()),
                            csvMs(latency, latency.isEmpty() ? 0 : latency.maxNs())))
                    .append('\n');
        }
        return csv.toString();
    }

    /** The answers' latency: the routes stream's primary one, so the outcome rows add up to its figures. */
    private LatencyKind answersKind() {
        return streams.get(Workload.Stream.ROUTES).stats().primaryKind();
    }

    private static String csvMs(LatencySummary latency, double ns) {
        return latency.isEmpty() ? "" : String.format(Locale.ROOT, "%.6f", ns / 1e6);
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Latency probe run: district workload\n\n");
        MarkdownTable about = new MarkdownTable(List.of("", ""));
        about.row(List.of(
                "streams",
                "readings -> predictions (`predictions/`), requests -> answers (`routes/`), measured apart"));
        about.row(List.of("read from", run.fromBeginning() ? "the earliest offsets" : "the latest offsets"));
        about.row(List.of("bootstrap servers", "`" + run.bootstrapServers() + "`"));
        about.row(List.of("consumer group", "`" + run.groupId() + "`"));
        about.row(List.of("started", run.started().toString()));
        about.row(List.of("ended", run.ended().toString()));
        about.row(List.of("stopped by", run.stoppedBy()));
        about.row(List.of("clock", run.clock()));
        about.row(List.of(
                "dead letters",
                run.deadLetters() == null ? "not read" : "`" + run.deadLetters() + "`, counted per stream"));
        md.append(about).append('\n');
        if (run.faultsFileError() != null) {
            md.append("**The faults file could not be read** (")
                    .append(run.faultsFileError())
                    .append("): its faults are left out of the streams' reports.\n\n");
        }

        md.append("## Streams\n\n");
        MarkdownTable table = new MarkdownTable(
                List.of(
                        "stream",
                        "topic",
                        "measured",
                        "warm-up",
                        "malformed",
                        "lost",
                        "duplicated",
                        "dead letters",
                        "lost, dead-lettered",
                        "expected",
                        "shortfall",
                        "latency",
                        "p50 ms",
                        "p99 ms",
                        "p99.9 ms",
                        "max ms",
                        "SLO violation ratio",
                        "report"),
                false,
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                false,
                true,
                true,
                true,
                true,
                true,
                false);
        for (Workload.Stream s : Workload.DISTRICT.streams()) {
            Stream stream = streams.get(s);
            RunStats stats = stream.stats();
            LatencyKind kind = stats.primaryKind();
            LatencySummary latency = stats.latency(kind).summary();
            SequenceTracker.DetectorCounts total = stats.sequences().total();
            WindowedSlo.Report slo = stats.slo(kind);
            List<String> row = new ArrayList<>(List.of(
                    s.measures(),
                    "`" + stream.topic() + "`",
                    count(stats.records()),
                    count(stats.warmupRecords()),
                    count(stats.malformed().total()),
                    count(total.lost()),
                    count(total.duplicated()),
                    run.deadLetters() == null ? "-" : count(deadLetters.total(s)),
                    run.deadLetters() == null ? "-" : count(deadLetters.lostOfThem(s, stats.sequences())),
                    stream.expected() > 0 ? count(stream.expected()) : "-",
                    stream.expected() > 0 ? count(stats.shortfall(stream.expected())) : "-",
                    kind.label()));
            for (double ns : latency.isEmpty()
                    ? new double[0]
                    : new double[] {latency.p50Ns(), latency.p99Ns(), latency.p999Ns(), latency.maxNs()}) {
                row.add(Decimals.ms(ns, 3));
            }
            while (row.size() < 16) {
                row.add("-");
            }
            row.add(Double.isNaN(slo.ratio()) ? "-" : Decimals.percent(slo.ratio()));
            row.add("[" + s.label() + "/" + RunReport.SUMMARY_MD + "](" + s.label() + "/" + RunReport.SUMMARY_MD + ")");
            table.row(row);
        }
        md.append(table).append('\n');
        md.append("Each stream is measured on its own, from its producer's stamps to the probe's arrival stamp: a "
                + "prediction from its reading's `intended_ns` (and `sent_ns`), an answer from its request's. "
                + "*Measured* leaves out warm-up records; lost, duplicated and reordered are told by `seq` per "
                + "detector (predictions) and per request stream (answers), warm-up records included. A dead "
                + "letter is an input the job rejected: its output never comes, so the stream counts it as lost "
                + "too; *lost, dead-lettered* are the lost whose dead letter names them (detector or request "
                + "stream, and `seq`), the rest went missing on the way. Percentiles are HdrHistogram's; each stream's folder holds its full report, raw latencies, "
                + "SLO windows and plots. Numbers for scripts: `" + STREAMS_CSV + "`.\n\n");

        md.append("## Answers by outcome\n\n");
        LatencyKind kind = answersKind();
        MarkdownTable byOutcome = new MarkdownTable(
                List.of("outcome", "answers", "warm-up", "measured", "p50 ms", "p99 ms", "p99.9 ms", "max ms"),
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true);
        for (RouteOutcome outcome : RouteOutcome.values()) {
            AnswerOutcomes.Counts counts = outcomes.of(outcome);
            LatencySummary latency = counts.latency(kind).summary();
            List<String> row = new ArrayList<>(List.of(
                    outcome.wire(),
                    count(counts.answers()),
                    count(counts.warmup()),
                    count(counts.answers() - counts.warmup())));
            for (double ns : latency.isEmpty()
                    ? new double[0]
                    : new double[] {latency.p50Ns(), latency.p99Ns(), latency.p999Ns(), latency.maxNs()}) {
                row.add(Decimals.ms(ns, 3));
            }
            while (row.size() < 8) {
                row.add("-");
            }
            byOutcome.row(row);
        }
        md.append(byOutcome).append('\n');
        md.append("Answers received, duplicates included, and the latency ")
                .append(kind.label())
                .append(" of the measured ones per outcome: an unreachable answer is counted and measured apart, "
                        + "never as a routed one. The routes stream's figures above cover every answer. An answer "
                        + "with an outcome the records do not know is malformed (`invalid outcome`), counted in "
                        + "the routes stream's malformed records. Numbers for scripts: `" + OUTCOMES_CSV
                        + "`.\n\n");

        if (run.deadLetters() != null) {
            md.append("## Dead letters\n\n");
            MarkdownTable letters = new MarkdownTable(List.of("stream", "reason", "dead letters"), false, false, true);
            for (Workload.Stream s : Workload.DISTRICT.streams()) {
                deadLetters.byReason(s).entrySet().stream()
                        .sorted(Map.Entry.comparingByKey())
                        .forEach(e -> letters.row(List.of(s.measures(), e.getKey(), count(e.getValue()))));
            }
            deadLetters
                    .otherSources()
                    .forEach((topic, n) -> letters.row(List.of("other source: `" + topic + "`", "", count(n))));
            if (letters.isEmpty()) {
                md.append("None arrived.\n\n");
            } else {
                md.append(letters).append('\n');
            }
        }
        return md.toString();
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
