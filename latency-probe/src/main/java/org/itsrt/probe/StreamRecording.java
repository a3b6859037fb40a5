package org.itsrt.probe;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.clock.LatencyClock;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.fault.FaultAnalysis;
import org.itsrt.probe.fault.FaultMark;
import org.itsrt.probe.report.ArrivalProgress;
import org.itsrt.probe.report.HistogramLog;
import org.itsrt.probe.report.LatencyCsv;
import org.itsrt.probe.report.RunInfo;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.report.TimelinePoints;
import org.itsrt.probe.stats.RunStats;

/**
 * What the probe keeps of one measured stream and the run folder it reports into: the statistics,
 * the raw latencies ({@code latencies.csv}, {@code latency.hlog}), the timeline's points and the
 * progress line. The study measures one stream into the run folder itself; the district workload
 * two, each into a folder of its own, so that their figures are never mixed.
 */
final class StreamRecording {

    private final String topic;
    private final String sequenceSource;
    private final Path folder;
    private final RunStats stats;
    private final TimelinePoints timeline;
    private final ArrivalProgress progress;
    private final ArrivalSink sink;
    private final long settingsSloNs;
    private final long settingsWindowNs;

    /**
     * @param topic         the topic the stream's records arrive on
     * @param sequenceSource what its records' {@code seq} counts per ({@link RunInfo#DETECTOR},
     *                      {@link RunInfo#REQUEST_STREAM}), as its report names it
     * @param folder        where its files go (created)
     * @param progressLabel what the progress lines start with after {@code its-probe: } (empty
     *                      for the study's single stream)
     * @param target        records the stream is expected to bring, for the progress line's ETA; 0
     *                      when unknown
     */
    StreamRecording(
            String topic,
            String sequenceSource,
            Path folder,
            ProbeOptions options,
            LatencyClock clock,
            PrintStream log,
            String progressLabel,
            long target,
            long epochAnchorMs,
            long clockAnchorNs)
            throws IOException {
        Files.createDirectories(folder);
        this.topic = topic;
        this.sequenceSource = sequenceSource;
        this.folder = folder;
        this.stats = new RunStats(options.settings());
        this.timeline = new TimelinePoints(options.settings().sloNs());
        this.progress = new ArrivalProgress(stats, log, options.progressEveryNs(), target, progressLabel);
        this.settingsSloNs = options.settings().sloNs();
        this.settingsWindowNs = options.settings().windowNs();
        LatencyCsv csv = new LatencyCsv(folder.resolve(LatencyCsv.FILE));
        HistogramLog hlog = new HistogramLog(
                folder.resolve(HistogramLog.FILE),
                options.settings().windowNs(),
                epochAnchorMs,
                clockAnchorNs,
                List.of(
                        "its-probe topic " + topic + " at " + options.bootstrapServers(),
                        "clock " + clock.info().describe(),
                        "values in ns"));
        // Warm-up records go to the statistics (which keep them apart) and to the progress line;
        // the raw latencies and the plots hold measured records only.
        this.sink = ArrivalSink.all(List.of(
                stats,
                ArrivalSink.measuredOnly(csv),
                ArrivalSink.measuredOnly(hlog),
                ArrivalSink.measuredOnly(timeline),
                progress));
    }

    String topic() {
        return topic;
    }

    String sequenceSource() {
        return sequenceSource;
    }

    Path folder() {
        return folder;
    }

    RunStats stats() {
        return stats;
    }

    /** Where the stream's arrivals go. */
    ArrivalSink sink() {
        return sink;
    }

    /** The run has stopped: flushes the raw files and prints the stream's last progress line. */
    void finish(long nowNs) throws IOException {
        sink.finish();
        progress.finalLine(nowNs);
    }

    /**
     * Writes the stream's report: the faults are analysed on its own latencies, read back from its
     * {@code latencies.csv} in arrival order.
     */
    void report(List<FaultMark> marks, RunInfo info) throws IOException {
        FaultAnalysis analysis = new FaultAnalysis(marks, stats.primaryKind(), settingsSloNs, settingsWindowNs);
        LatencyCsv.replay(folder.resolve(LatencyCsv.FILE), analysis);
        new RunReport(info, stats, timeline, analysis.result()).write(folder);
    }
}
