package org.itsrt.pipeline.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code profile.md}: per JVM of a run, the CPU it took (cores busy, CPU microseconds per record)
 * over the whole load and after the warm-up, then where its Java threads spent their samples and
 * what they allocated, from its flight recording ({@link JfrCosts}).
 *
 * @param start           the load's start (first record about to be sent)
 * @param end             the last record measured
 * @param steadyFrom      the end of the warm-up: the "after warm-up" columns and the JFR tables start here
 * @param records         records measured in the whole window
 * @param steadyRecords   records in the probe's steady state (after its warm-up)
 * @param samples         CPU time samples of every process
 * @param recordings      flight recordings by JVM name
 */
public record ProfileReport(
        Instant start,
        Instant end,
        Instant steadyFrom,
        long records,
        long steadyRecords,
        List<CpuSampler.Sample> samples,
        Map<String, Path> recordings) {

    public static final String MARKDOWN = "profile.md";

    /** Rows per table in the report. */
    private static final int ROWS = 15;

    private static final int STACK_ROWS = 10;

    public String markdown() throws IOException {
        boolean hasSteady = steadyFrom.isBefore(end) && steadyRecords > 0;
        Instant jfrFrom = hasSteady ? steadyFrom : start;
        Map<String, CpuSampler.Usage> whole = CpuSampler.usage(samples, start, end);
        Map<String, CpuSampler.Usage> steady = hasSteady ? CpuSampler.usage(samples, steadyFrom, end) : Map.of();
        StringBuilder md = new StringBuilder("# Profile: where the CPU goes\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Load from %s to %s (%.1f s), %,d records measured; after the warm-up (from %s, %.1f s): "
                        + "%,d records.%n%n",
                start,
                end,
                seconds(start, end),
                records,
                steadyFrom,
                hasSteady ? seconds(steadyFrom, end) : 0.0,
                steadyRecords));
        md.append("CPU time is user + system of every thread of the process (/proc/PID/stat), sampled every "
                + "second; *cores* is CPU seconds per wall second, *µs/record* CPU time over the records "
                + "measured in the same span. The records per second of a span come from the probe, whose "
                + "warm-up starts at the first arrival, a few milliseconds after the load's start.\n\n");
        Map<String, JfrCosts> costsByJvm = new LinkedHashMap<>();
        for (Map.Entry<String, Path> rec : recordings.entrySet()) {
            costsByJvm.put(rec.getKey(), JfrCosts.read(rec.getValue(), jfrFrom, end));
        }
        md.append("*JIT* is the part of the cores after warm-up that the JIT compiler's threads took (JFR's per-thread "
                + "CPU load): a cost of the JVMs' first minutes, not of the records, which a longer run leaves "
                + "behind.\n\n");
        md.append("| JVM | cores, whole load | cores, after warm-up | of which JIT | µs CPU/record, whole load "
                + "| µs CPU/record, after warm-up |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        double[] totals = new double[5];
        for (String jvm : whole.keySet()) {
            CpuSampler.Usage w = whole.get(jvm);
            CpuSampler.Usage s = steady.get(jvm);
            JfrCosts costs = costsByJvm.get(jvm);
            double[] row = {
                w.cores(),
                s == null ? Double.NaN : s.cores(),
                costs == null ? Double.NaN : costs.jitCores(),
                perRecord(w.cpuSeconds(), records),
                s == null ? Double.NaN : perRecord(s.cpuSeconds(), steadyRecords)
            };
            for (int i = 0; i < row.length; i++) {
                totals[i] += row[i];
            }
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s |%n",
                    jvm,
                    fixed(row[0], 2),
                    fixed(row[1], 2),
                    fixed(row[2], 2),
                    fixed(row[3], 1),
                    fixed(row[4], 1)));
        }
        md.append(String.format(
                Locale.ROOT,
                "| **all** | %s | %s | %s | %s | %s |%n%n",
                fixed(totals[0], 2),
                fixed(totals[1], 2),
                fixed(totals[2], 2),
                fixed(totals[3], 1),
                fixed(totals[4], 1)));
        md.append("Per JVM below: JFR's execution samples (Java frames only: time in the kernel or in native code "
                + "is in the CPU time above but not here) from " + jfrFrom + " to " + end
                + ", by the method on top of the stack (self), by the top " + JfrCosts.STACK_DEPTH
                + " frames, and by thread (numbers in names folded to N); then each kind of thread's CPU, kernel "
                + "time included (JFR's per-thread CPU load every second); allocation samples by the allocating "
                + "method; collector pauses.\n");
        for (Map.Entry<String, Path> rec : recordings.entrySet()) {
            JfrCosts costs = costsByJvm.get(rec.getKey());
            md.append("\n## ").append(rec.getKey()).append("\n\n");
            md.append(String.format(
                    Locale.ROOT,
                    "`%s`: %,d execution samples, %.1f MB sampled allocation%s, %d GC pauses (%.1f ms in all).%n%n",
                    rec.getValue().getFileName(),
                    costs.samples(),
                    costs.allocatedBytes() / 1e6,
                    steadyRecords > 0 && hasSteady
                            ? String.format(
                                    Locale.ROOT,
                                    " (%,.0f bytes/record)",
                                    (double) costs.allocatedBytes() / steadyRecords)
                            : "",
                    costs.gcPauses(),
                    costs.gcPauseMs()));
            if (costs.samples() == 0) {
                md.append("No execution samples in the window.\n\n");
                cpuTable(md, costs.cpuByThread());
                continue;
            }
            table(md, "self time (method on top)", "samples", costs.selfByMethod(), ROWS, costs.samples());
            table(md, "heaviest stacks (innermost first)", "samples", costs.byStack(), STACK_ROWS, costs.samples());
            table(md, "threads", "samples", costs.byThread(), ROWS, costs.samples());
            cpuTable(md, costs.cpuByThread());
            table(
                    md,
                    "allocation (allocating method)",
                    "MB",
                    costs.allocByMethod().stream()
                            .map(e -> Map.entry(e.getKey(), e.getValue()))
                            .toList(),
                    ROWS,
                    costs.allocatedBytes());
        }
        return md.toString();
    }

    private static void table(
            StringBuilder md, String title, String unit, List<Map.Entry<String, Long>> rows, int limit, long total) {
        if (rows.isEmpty()) {
            return;
        }
        boolean bytes = "MB".equals(unit);
        md.append("| ").append(title).append(" | ").append(unit).append(" | % |\n|---|---:|---:|\n");
        for (Map.Entry<String, Long> e : rows.subList(0, Math.min(limit, rows.size()))) {
            md.append(String.format(
                    Locale.ROOT,
                    "| `%s` | %s | %.1f |%n",
                    e.getKey().replace("|", "\\|"),
                    bytes ? String.format(Locale.ROOT, "%.1f", e.getValue() / 1e6) : String.format("%d", e.getValue()),
                    100.0 * e.getValue() / total));
        }
        md.append('\n');
    }

    /** Threads by CPU (cores, kernel time included), which execution samples do not see whole. */
    private static void cpuTable(StringBuilder md, List<Map.Entry<String, Long>> cpu) {
        if (cpu.isEmpty()) {
            return;
        }
        md.append("| threads by CPU (user + system, jdk.ThreadCPULoad) | cores |\n|---|---:|\n");
        for (Map.Entry<String, Long> e : cpu.subList(0, Math.min(ROWS, cpu.size()))) {
            md.append(String.format(
                    Locale.ROOT, "| `%s` | %.3f |%n", e.getKey().replace("|", "\\|"), e.getValue() / 1000.0));
        }
        md.append('\n');
    }

    /** Per JVM, the CPU share and the CPU µs per record after the warm-up (whole load when none). */
    public Map<String, double[]> cpuAfterWarmup() {
        boolean hasSteady = steadyFrom.isBefore(end) && steadyRecords > 0;
        Map<String, CpuSampler.Usage> usage = CpuSampler.usage(samples, hasSteady ? steadyFrom : start, end);
        Map<String, double[]> out = new LinkedHashMap<>();
        usage.forEach((jvm, u) ->
                out.put(jvm, new double[] {u.cores(), perRecord(u.cpuSeconds(), hasSteady ? steadyRecords : records)}));
        return out;
    }

    private static double perRecord(double cpuSeconds, long records) {
        return records == 0 ? Double.NaN : cpuSeconds * 1e6 / records;
    }

    private static String fixed(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static double seconds(Instant a, Instant b) {
        return Duration.between(a, b).toNanos() / 1e9;
    }
}
