package org.itsrt.probe.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.probe.fault.FaultAnalysis;
import org.itsrt.probe.fault.FaultMark;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.Stage;
import org.itsrt.probe.stats.WindowedSlo;

/**
 * The run's plots, each as PNG and SVG: ECDF (linear and log), latency over time with the windowed
 * p95, duplicated records, fault marks and the silences after them, stages.
 */
final class RunPlots {

    /** Legend of the shaded silences after fault marks. */
    static final String SILENCE_AFTER_FAULT = "no arrivals (after a fault)";

    /** Legend of the windows of faults that last, from the mark to the end (a broker down). */
    static final String FAULT_WINDOW = "fault window (mark to end)";

    /** Legend of the run's longest silence, shaded when no fault was marked. */
    static final String LONGEST_SILENCE = "longest silence (no fault marked)";

    private final RunInfo info;
    private final RunStats stats;
    private final TimelinePoints timeline;
    private final FaultAnalysis.Result faults;

    RunPlots(RunInfo info, RunStats stats, TimelinePoints timeline, FaultAnalysis.Result faults) {
        this.info = info;
        this.stats = stats;
        this.timeline = timeline;
        this.faults = faults;
    }

    /** Writes the plots into {@code dir}; returns their names (no extension), none when no record arrived. */
    List<String> write(Path dir) throws IOException {
        List<String> written = new ArrayList<>();
        if (stats.isEmpty()) {
            return written;
        }
        List<Ecdf> ecdfs = new ArrayList<>();
        for (LatencyKind kind : LatencyKind.values()) {
            LatencyHistogram h = stats.latency(kind);
            if (h.count() > 0) {
                ecdfs.add(Ecdf.ofHistogram("latency " + kind.label(), h.histogram()));
            }
        }
        String title = "End-to-end latency, " + info.topic() + " (" + String.format(Locale.ROOT, "%,d", stats.records())
                + " records)";
        Charts.save(Charts.ecdf(title, ecdfs, false), dir, RunReport.ECDF);
        written.add(RunReport.ECDF);
        Charts.save(Charts.ecdf(title, ecdfs, true), dir, RunReport.ECDF_LOG);
        written.add(RunReport.ECDF_LOG);
        Charts.save(timelineChart(), dir, RunReport.TIMELINE);
        written.add(RunReport.TIMELINE);
        if (stats.hasStages()) {
            Charts.save(stagesChart(), dir, RunReport.STAGES);
            written.add(RunReport.STAGES);
        }
        return written;
    }

    private org.knowm.xchart.XYChart timelineChart() {
        LatencyKind kind = stats.primaryKind();
        WindowedSlo.Report slo = stats.slo(kind);
        List<Charts.TimeSeries> series = new ArrayList<>();
        series.add(points("records", timeline.regular(), kind, Charts.Style.DOTS));
        series.add(points("records above the SLO", timeline.tail(), kind, Charts.Style.DOTS));
        double[] windowSeconds = new double[slo.nonEmpty().size()];
        double[] windowP95 = new double[windowSeconds.length];
        for (int i = 0; i < windowSeconds.length; i++) {
            WindowedSlo.Window w = slo.nonEmpty().get(i);
            windowSeconds[i] = (w.index() + 0.5) * slo.windowNs() / 1e9;
            windowP95[i] = w.p95Ns() / 1e6;
        }
        series.add(new Charts.TimeSeries(
                "p95 per " + Decimals.seconds(slo.windowNs()) + " window",
                windowSeconds,
                windowP95,
                Charts.Style.LINE));
        double span = (stats.lastArrivalNs() - stats.firstArrivalNs()) / 1e9;
        double sloMs = slo.sloNs() / 1e6;
        series.add(new Charts.TimeSeries(
                "SLO " + Decimals.millis(slo.sloNs()),
                new double[] {0, Math.max(span, 1e-3)},
                new double[] {sloMs, sloMs},
                Charts.Style.LINE));
        // After the lines, so that a run with duplicates keeps the colours of one without.
        series.add(points("duplicated records", timeline.duplicates(), kind, Charts.Style.DIAMONDS));
        String sampled = timeline.stride() > 1
                ? " (1 in " + timeline.stride() + " records at or below the SLO shown, all above)"
                : "";
        List<Charts.Mark> marks = new ArrayList<>();
        List<Charts.Shade> shades = new ArrayList<>();
        // After the silences, so that the silences keep their colour in runs with and without windows.
        List<Charts.Shade> windows = new ArrayList<>();
        for (int i = 0; i < faults.faults().size(); i++) {
            FaultAnalysis.Fault fault = faults.faults().get(i);
            marks.add(new Charts.Mark(
                    RunMarkdown.faultName(i) + " " + fault.mark().label(),
                    seconds(fault.mark().clockNs())));
            FaultMark.End end = fault.mark().end();
            if (end != null) {
                marks.add(new Charts.Mark(RunMarkdown.faultName(i) + " over", seconds(end.clockNs())));
                windows.add(new Charts.Shade(FAULT_WINDOW, seconds(fault.mark().clockNs()), seconds(end.clockNs())));
            }
            if (fault.gapNs() != null) {
                shades.add(new Charts.Shade(
                        SILENCE_AFTER_FAULT, seconds(fault.lastBeforeNs()), seconds(fault.firstAfterNs())));
            }
            // The longest silence too when it is another one: an outage that began after the mark.
            FaultAnalysis.Silence silence = fault.silence();
            if (silence != null && (fault.gapNs() == null || silence.startNs() != fault.lastBeforeNs())) {
                shades.add(new Charts.Shade(SILENCE_AFTER_FAULT, seconds(silence.startNs()), seconds(silence.endNs())));
            }
        }
        shades.addAll(windows);
        FaultAnalysis.Silence longest = faults.largestSilence();
        // Unmarked, only a silence of at least a window is worth the eye: shorter ones are the
        // ordinary pauses between polls.
        if (faults.faults().isEmpty()
                && longest != null
                && longest.lengthNs() >= stats.settings().windowNs()) {
            shades.add(new Charts.Shade(LONGEST_SILENCE, seconds(longest.startNs()), seconds(longest.endNs())));
        }
        return Charts.timeline("Latency " + kind.label() + " over time" + sampled, series, marks, shades);
    }

    /** A time on the latency clock as seconds since the first arrival, the timeline's x axis. */
    private double seconds(long clockNs) {
        return (clockNs - stats.firstArrivalNs()) / 1e9;
    }

    private static Charts.TimeSeries points(
            String name, TimelinePoints.Points points, LatencyKind kind, Charts.Style style) {
        double[] x = new double[points.size()];
        double[] y = new double[points.size()];
        int n = 0;
        for (int i = 0; i < points.size(); i++) {
            float ms = kind == LatencyKind.FROM_SENT ? points.fromSentMs(i) : points.fromIntendedMs(i);
            if (!Float.isNaN(ms)) {
                x[n] = points.seconds(i);
                y[n] = ms;
                n++;
            }
        }
        return new Charts.TimeSeries(name, java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(y, n), style);
    }

    private org.knowm.xchart.CategoryChart stagesChart() {
        List<String> categories = new ArrayList<>();
        List<Stage> present = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (stats.stage(stage).count() > 0) {
                categories.add(stage.label());
                present.add(stage);
            }
        }
        double[] percentiles = {50, 99, 99.9};
        List<String> names = List.of("p50", "p99", "p99.9");
        List<List<Double>> values = new ArrayList<>();
        for (double p : percentiles) {
            List<Double> row = new ArrayList<>();
            for (Stage stage : present) {
                row.add(stats.stage(stage).percentileNs(p) / 1e3);
            }
            values.add(row);
        }
        return Charts.bars(
                "Time per stage in the job ("
                        + String.format(
                                Locale.ROOT, "%,d", stats.stage(present.get(0)).count()) + " records)",
                "duration (µs)",
                categories,
                names,
                values);
    }
}
