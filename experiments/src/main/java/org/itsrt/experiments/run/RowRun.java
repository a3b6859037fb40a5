package org.itsrt.experiments.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;

/**
 * What one run of one row measured: the probe's latency (from the intended send time, steady
 * state and whole run), its SLO-violation ratio, and what the backend reported (throttling).
 *
 * @param exitCode the pipeline's exit code (0 = every record measured)
 * @param applied  the backend's facts: what was set, what was measured (e.g. cpu.stat)
 */
public record RowRun(
        Row row,
        int repetition,
        Path dir,
        int exitCode,
        Percentiles steady,
        Percentiles all,
        double sloViolationRatio,
        long lost,
        Map<String, Object> applied,
        Warmup warmup) {

    /**
     * The run's warm-up, apart from its measured figures: records, their p99 (ms, from the
     * intended send time) and the probe's settle time (s from the first arrival); NaN where the
     * run had none or the probe could not tell.
     */
    public record Warmup(long records, double p99Ms, double settledAfterS) {

        /** A run without a warm-up. */
        public static final Warmup NONE = new Warmup(0, Double.NaN, Double.NaN);

        static Warmup of(ProbeSummary.Warmup w) {
            return new Warmup(
                    w.records(),
                    w.p99Ms() == null ? Double.NaN : w.p99Ms(),
                    w.settledAfterS() == null ? Double.NaN : w.settledAfterS());
        }
    }

    /** A run whose warm-up is not known (built by hand, not read from a probe's summary). */
    public RowRun(
            Row row,
            int repetition,
            Path dir,
            int exitCode,
            Percentiles steady,
            Percentiles all,
            double sloViolationRatio,
            long lost,
            Map<String, Object> applied) {
        this(row, repetition, dir, exitCode, steady, all, sloViolationRatio, lost, applied, Warmup.NONE);
    }

    /** Latency percentiles in ms; NaN where the span had no records. */
    public record Percentiles(long count, double p50, double p90, double p99, double p999, double max) {

        static Percentiles of(ProbeSummary.LatencyStats s) {
            return new Percentiles(
                    s.count(), ms(s.p50Ms()), ms(s.p90Ms()), ms(s.p99Ms()), ms(s.p999Ms()), ms(s.maxMs()));
        }

        private static double ms(Double value) {
            return value == null ? Double.NaN : value;
        }
    }

    /** A run that failed before its load started (the job did not get ready): no figures. */
    public static RowRun notMeasured(Row row, int repetition, Path dir, Map<String, Object> applied) {
        Percentiles none = new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        return new RowRun(row, repetition, dir, 1, none, none, Double.NaN, 0, applied);
    }

    /** A run from the probe's summary: the steady state where the run has one, else the whole run. */
    public static RowRun of(
            Row row, int repetition, Path dir, int exitCode, ProbeSummary summary, Map<String, Object> applied) {
        ProbeSummary.Spans<ProbeSummary.LatencyStats> latency =
                summary.latency().fromIntended();
        ProbeSummary.Spans<ProbeSummary.Slo> slo = summary.slo().fromIntended();
        ProbeSummary.Slo sloSpan = slo.steadyState() != null ? slo.steadyState() : slo.all();
        return new RowRun(
                row,
                repetition,
                dir,
                exitCode,
                Percentiles.of(latency.steadyOrAll(ProbeSummary.LatencyStats::count)),
                Percentiles.of(latency.all()),
                sloSpan.violationRatio() == null ? Double.NaN : sloSpan.violationRatio(),
                summary.lostOrMissing(),
                applied,
                Warmup.of(summary.warmup()));
    }

    /** Reads the probe's summary.json of a run folder. */
    static RowRun read(Row row, int repetition, Path dir, int exitCode, Map<String, Object> applied)
            throws IOException {
        return of(
                row,
                repetition,
                dir,
                exitCode,
                ProbeSummary.read(dir.resolve("probe").resolve(RunReport.SUMMARY_JSON)),
                applied);
    }

    /** Whether this run met the experiment's SLO (steady-state p99 and max). */
    public boolean meets(double p99Ms, double maxMs) {
        return exitCode == 0 && steady.p99() <= p99Ms && steady.max() <= maxMs;
    }
}
