package org.itsrt.probe.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.fault.FaultAnalysis;
import org.itsrt.probe.fault.FaultMark;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.Stage;
import org.itsrt.probe.stats.WindowedSlo;

/**
 * Writes a run folder's report once the run has stopped: {@code summary.json} (the
 * {@link ProbeSummary} built here), {@code summary.md} ({@link RunMarkdown}), {@code windows.csv}
 * ({@link WindowsCsv}) and the plots ({@link RunPlots}). ({@code latencies.csv} and
 * {@code latency.hlog} are written while the run goes, by {@link LatencyCsv} and
 * {@link HistogramLog}.)
 */
public final class RunReport {

    public static final String SUMMARY_JSON = "summary.json";
    public static final String SUMMARY_MD = "summary.md";
    public static final String WINDOWS_CSV = "windows.csv";

    /** Plot files (without extension), each written as .png and .svg. */
    public static final String ECDF = "ecdf";

    public static final String ECDF_LOG = "ecdf-log";
    public static final String TIMELINE = "timeline";
    public static final String STAGES = "stages";

    private final RunInfo info;
    private final RunStats stats;
    private final TimelinePoints timeline;
    private final FaultAnalysis.Result faults;

    public RunReport(RunInfo info, RunStats stats, TimelinePoints timeline, FaultAnalysis.Result faults) {
        this.info = info;
        this.stats = stats;
        this.timeline = timeline;
        this.faults = faults;
    }

    /** Writes everything into {@code dir}; returns the plot names written (no extension). */
    public List<String> write(Path dir) throws IOException {
        List<String> plots = new RunPlots(info, stats, timeline, faults).write(dir);
        WindowsCsv.write(dir.resolve(WINDOWS_CSV), stats);
        summary(plots).write(dir.resolve(SUMMARY_JSON));
        Files.writeString(
                dir.resolve(SUMMARY_MD), new RunMarkdown(info, stats, faults).write(plots), StandardCharsets.UTF_8);
        return plots;
    }

    // ---------------------------------------------------------------- summary.json

    /** The run as {@code summary.json} holds it. */
    ProbeSummary summary(List<String> plots) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Long> e : info.startOffsets().entrySet()) {
            offsets.put(Integer.toString(e.getKey().partition()), e.getValue());
        }
        ProbeSummary.Run run = new ProbeSummary.Run(
                info.topic(),
                info.bootstrapServers(),
                info.groupId(),
                info.fromBeginning(),
                offsets,
                new LinkedHashMap<>(info.consumerOverrides()),
                info.started().toString(),
                info.ended().toString(),
                Duration.between(info.started(), info.ended()).toMillis() / 1000.0,
                stats.isEmpty() ? 0 : (stats.lastArrivalNs() - stats.firstArrivalNs()) / 1e9,
                info.stoppedBy(),
                info.clock());
        ProbeSummary.Settings settings = new ProbeSummary.Settings(
                stats.settings().windowNs() / 1e9,
                stats.settings().sloNs() / 1e6,
                stats.settings().steadyAfterNs() / 1e9,
                LatencyHistogram.SIGNIFICANT_DIGITS);
        boolean expected = info.expected() > 0;
        ProbeSummary.Records records = new ProbeSummary.Records(
                stats.records(),
                stats.malformed().total(),
                new LinkedHashMap<>(stats.malformed().byReason()),
                new ProbeSummary.ByKind<>(
                        stats.latency(LatencyKind.FROM_SENT).negative(),
                        stats.latency(LatencyKind.FROM_INTENDED).negative()),
                expected ? info.expected() : null,
                expected ? stats.shortfall(info.expected()) : null);
        ProbeSummary.ByKind<ProbeSummary.Spans<ProbeSummary.LatencyStats>> latency =
                new ProbeSummary.ByKind<>(latencySpans(LatencyKind.FROM_SENT), latencySpans(LatencyKind.FROM_INTENDED));
        ProbeSummary.Stages stages =
                new ProbeSummary.Stages(stageStats(Stage.PARSE), stageStats(Stage.INFER), stageStats(Stage.ROUTE));
        List<ProbeSummary.DetectorDelivery> perDetector = new ArrayList<>();
        for (SequenceTracker.DetectorCounts c : stats.sequences().perDetector()) {
            perDetector.add(new ProbeSummary.DetectorDelivery(
                    c.detector(), c.received(), c.distinct(), c.maxSeq(), c.lost(), c.duplicated(), c.reordered()));
        }
        SequenceTracker.DetectorCounts t = stats.sequences().total();
        ProbeSummary.Sequence sequence = new ProbeSummary.Sequence(
                new ProbeSummary.Delivery(
                        t.received(), t.distinct(), t.maxSeq(), t.lost(), t.duplicated(), t.reordered()),
                perDetector);
        ProbeSummary.ByKind<ProbeSummary.Spans<ProbeSummary.Slo>> slo =
                new ProbeSummary.ByKind<>(sloSpans(LatencyKind.FROM_SENT), sloSpans(LatencyKind.FROM_INTENDED));
        List<String> plotFiles = new ArrayList<>();
        for (String plot : plots) {
            plotFiles.add(plot + ".png");
            plotFiles.add(plot + ".svg");
        }
        ProbeSummary.Files files = new ProbeSummary.Files(LatencyCsv.FILE, HistogramLog.FILE, WINDOWS_CSV, plotFiles);
        return new ProbeSummary(
                ProbeSummary.FORMAT,
                run,
                settings,
                records,
                warmup(),
                stats.primaryKind().key(),
                latency,
                stages,
                sequence,
                slo,
                faults(),
                files);
    }

    private ProbeSummary.Warmup warmup() {
        LatencyKind kind = stats.primaryKind();
        LatencySummary w = stats.warmupLatency(kind).summary();
        RunStats.Settle settle = stats.settle(kind);
        boolean settled = settle.settledAfterNs() >= 0;
        return new ProbeSummary.Warmup(
                stats.warmupRecords(),
                w.isEmpty() ? null : w.percentileNs(0) / 1e6,
                w.isEmpty() ? null : w.percentileNs(3) / 1e6,
                w.isEmpty() ? null : w.maxNs() / 1e6,
                RunStats.SETTLE_FACTOR,
                settled ? settle.medianWindowP95Ns() / 1e6 : null,
                settled ? settle.settledAfterNs() / 1e9 : null,
                settle.windowsOver(),
                settle.measuredWindowsOver());
    }

    private ProbeSummary.Faults faults() {
        List<ProbeSummary.Fault> marks = new ArrayList<>();
        for (FaultAnalysis.Fault f : faults.faults()) {
            Map<String, Long> duplicated = new LinkedHashMap<>();
            f.duplicatedByDetector().forEach((detector, n) -> duplicated.put(Long.toString(detector), n));
            FaultMark.End end = f.mark().end();
            marks.add(new ProbeSummary.Fault(
                    f.mark().label(),
                    f.mark().at().toString(),
                    stats.isEmpty() ? null : offsetS(f.mark().clockNs()),
                    end == null ? null : end.at().toString(),
                    end == null || stats.isEmpty() ? null : offsetS(end.clockNs()),
                    f.lastBeforeNs() == null ? null : offsetS(f.lastBeforeNs()),
                    f.firstAfterNs() == null ? null : offsetS(f.firstAfterNs()),
                    f.gapNs() == null ? null : f.gapNs() / 1e9,
                    silence(f.silence()),
                    f.delayed(),
                    f.peakLatencyNs() == null ? null : f.peakLatencyNs() / 1e6,
                    f.recoveryNs() == null ? null : f.recoveryNs() / 1e9,
                    f.recoveryAfterEndNs() == null ? null : f.recoveryAfterEndNs() / 1e9,
                    f.duplicated(),
                    duplicated));
        }
        return new ProbeSummary.Faults(marks, silence(faults.largestSilence()));
    }

    private ProbeSummary.Silence silence(FaultAnalysis.Silence s) {
        return s == null ? null : new ProbeSummary.Silence(offsetS(s.startNs()), s.lengthNs() / 1e9);
    }

    /** Seconds since the first arrival, the time axis of the timeline. */
    private double offsetS(long clockNs) {
        return (clockNs - stats.firstArrivalNs()) / 1e9;
    }

    private ProbeSummary.Spans<ProbeSummary.LatencyStats> latencySpans(LatencyKind kind) {
        return new ProbeSummary.Spans<>(
                latencyStats(stats.latency(kind).summary()),
                stats.hasSteadyState() ? latencyStats(stats.steadyLatency(kind).summary()) : null);
    }

    private ProbeSummary.Spans<ProbeSummary.Slo> sloSpans(LatencyKind kind) {
        return new ProbeSummary.Spans<>(
                slo(stats.slo(kind)), stats.hasSteadyState() ? slo(stats.steadySlo(kind)) : null);
    }

    private static ProbeSummary.LatencyStats latencyStats(LatencySummary s) {
        double[] v = values(s, 1e6);
        return s.isEmpty()
                ? new ProbeSummary.LatencyStats(0, null, null, null, null, null, null, null, null, null)
                : new ProbeSummary.LatencyStats(s.count(), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }

    private ProbeSummary.StageStats stageStats(Stage stage) {
        LatencySummary s = stats.stage(stage).summary();
        double[] v = values(s, 1e3);
        return s.isEmpty()
                ? new ProbeSummary.StageStats(0, null, null, null, null, null, null, null, null, null)
                : new ProbeSummary.StageStats(s.count(), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }

    /** min, mean, the percentiles of {@link LatencySummary#PERCENTILES} and max, divided by {@code divisor}. */
    private static double[] values(LatencySummary s, double divisor) {
        double[] v = new double[3 + LatencySummary.PERCENTILES.length];
        v[0] = s.minNs() / divisor;
        v[1] = s.meanNs() / divisor;
        for (int i = 0; i < LatencySummary.PERCENTILES.length; i++) {
            v[2 + i] = s.percentileNs(i) / divisor;
        }
        v[v.length - 1] = s.maxNs() / divisor;
        return v;
    }

    private static ProbeSummary.Slo slo(WindowedSlo.Report r) {
        return new ProbeSummary.Slo(
                r.fromOffsetNs() / 1e9,
                r.windows(),
                r.empty(),
                r.violating(),
                Double.isNaN(r.ratio()) ? null : r.ratio(),
                r.records(),
                r.overSlo());
    }
}
