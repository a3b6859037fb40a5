package org.itsrt.probe.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.itsrt.probe.report.Ecdf;
import org.itsrt.probe.report.HistogramLog;
import org.itsrt.probe.report.LatencyCsv;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.SortedSample;
import org.itsrt.probe.stats.WindowedSlo;

/**
 * A probe run as a comparison row, read back from its folder: from {@code latencies.csv} when it is
 * there (every value, exact percentiles, and the SLO ratio recomputed with the comparison's window
 * and SLO), else from {@code latency.hlog} (HdrHistogram percentiles; the SLO ratio as the run's
 * {@code summary.json} recorded it).
 */
public final class RunLatencies {

    /** Where a demo run ({@code ./its demo}) keeps its probe's run folder. */
    public static final String DEMO_PROBE_FOLDER = "probe";

    private RunLatencies() {}

    /** Whether {@code dir} is a probe run folder. */
    public static boolean isRunFolder(Path dir) {
        return Files.isRegularFile(dir.resolve(LatencyCsv.FILE))
                || Files.isRegularFile(dir.resolve(HistogramLog.FILE))
                || Files.isRegularFile(dir.resolve(RunReport.SUMMARY_JSON));
    }

    /**
     * Reads a run folder, or a {@code latencies.csv} or {@code .hlog} file of one.
     *
     * @param kind latency to compare; runs whose records carry no intended time fall back to from sent
     */
    public static Distribution read(Path path, LatencyKind kind, long windowNs, long sloNs) throws IOException {
        Path folder = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
        String label = label(folder, path);
        if (Files.isDirectory(path)) {
            if (Files.isRegularFile(path.resolve(LatencyCsv.FILE))) {
                return fromCsv(label, path.resolve(LatencyCsv.FILE), kind, windowNs, sloNs);
            }
            if (Files.isRegularFile(path.resolve(HistogramLog.FILE))) {
                return fromHistogramLog(label, path.resolve(HistogramLog.FILE), kind, sloNs, windowNs);
            }
            throw new IOException(path + " holds neither " + LatencyCsv.FILE + " nor " + HistogramLog.FILE
                    + " (a probe run folder) nor *_latency.txt files (the study's)");
        }
        String name = path.getFileName().toString();
        if (name.endsWith(".csv")) {
            return fromCsv(label, path, kind, windowNs, sloNs);
        }
        if (name.endsWith(".hlog")) {
            return fromHistogramLog(label, path, kind, sloNs, windowNs);
        }
        throw new IOException(path + ": not a run folder, latencies.csv, .hlog or study *_latency.txt file");
    }

    /**
     * A run's row name: its folder's name, or, for the probe folder inside a demo run
     * ({@code RUN/probe}), the demo run's name.
     */
    private static String label(Path folder, Path path) {
        Path name = folder.getFileName();
        if (name == null) {
            return path.toString();
        }
        Path parent = folder.toAbsolutePath().normalize().getParent();
        if (name.toString().equals(DEMO_PROBE_FOLDER) && parent != null && parent.getFileName() != null) {
            return parent.getFileName().toString();
        }
        return name.toString();
    }

    static Distribution fromCsv(String label, Path csv, LatencyKind wanted, long windowNs, long sloNs)
            throws IOException {
        long[] arrival = new long[1024];
        long[] fromSent = new long[1024];
        long[] fromIntended = new long[1024];
        int n = 0;
        int withIntended = 0;
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                throw new IOException(csv + ": empty file, expected the header " + LatencyCsv.HEADER);
            }
            List<String> columns = List.of(header.strip().split(","));
            int arrivalAt = column(csv, columns, "arrival_ns");
            int sentAt = column(csv, columns, "sent_ns");
            int intendedAt = column(csv, columns, "intended_ns");
            String line;
            int lineNumber = 1;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                if (cells.length < columns.size()) {
                    throw new IOException(
                            csv + ":" + lineNumber + ": " + cells.length + " columns, expected " + columns.size());
                }
                if (n == arrival.length) {
                    arrival = Arrays.copyOf(arrival, n * 2);
                    fromSent = Arrays.copyOf(fromSent, n * 2);
                    fromIntended = Arrays.copyOf(fromIntended, n * 2);
                }
                try {
                    arrival[n] = Long.parseLong(cells[arrivalAt]);
                    fromSent[n] = arrival[n] - Long.parseLong(cells[sentAt]);
                    if (cells[intendedAt].isEmpty()) {
                        fromIntended[n] = Long.MIN_VALUE;
                    } else {
                        fromIntended[n] = arrival[n] - Long.parseLong(cells[intendedAt]);
                        withIntended++;
                    }
                } catch (NumberFormatException e) {
                    throw new IOException(
                            csv + ":" + lineNumber + ": expected integer nanosecond stamps: " + e.getMessage());
                }
                n++;
            }
        }
        LatencyKind kind = wanted == LatencyKind.FROM_INTENDED && withIntended == 0 ? LatencyKind.FROM_SENT : wanted;
        long[] latency = kind == LatencyKind.FROM_SENT ? fromSent : fromIntended;
        long first = n == 0 ? 0 : Arrays.stream(arrival, 0, n).min().orElse(0);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        final long[] arrivals = arrival;
        Arrays.sort(order, (a, b) -> Long.compare(arrivals[a], arrivals[b]));
        WindowedSlo windows = new WindowedSlo(windowNs, sloNs);
        double[] ms = new double[n];
        int kept = 0;
        int negative = 0;
        long last = first;
        for (int i : order) {
            long value = latency[i];
            if (value == Long.MIN_VALUE) {
                continue;
            }
            if (value < 0) {
                negative++;
                continue;
            }
            ms[kept++] = value / 1e6;
            windows.record(arrival[i] - first, value);
            last = Math.max(last, arrival[i]);
        }
        if (kept == 0) {
            throw new IOException(csv + ": no measurable record in it");
        }
        SortedSample sample = SortedSample.of(Arrays.copyOf(ms, kept));
        WindowedSlo.Report slo = windows.report(0, last - first);
        String latencyText = "run: " + kind.label() + (kind != wanted ? " (the records carry no intended time)" : "")
                + (negative > 0 ? "; " + negative + " negative latencies left out" : "");
        return new Distribution(
                label,
                csv.toString(),
                latencyText,
                sample.count(),
                sample.min(),
                sample.percentile(50),
                sample.percentile(90),
                sample.percentile(99),
                sample.percentile(99.9),
                sample.max(),
                CompareReport.EXACT,
                slo.ratio(),
                String.format(
                        Locale.ROOT,
                        "recomputed from %s: %d of %d windows",
                        LatencyCsv.FILE,
                        slo.violating(),
                        slo.windows()),
                Ecdf.ofSorted(label, sample.sortedValues()));
    }

    private static int column(Path csv, List<String> columns, String name) throws IOException {
        int index = columns.indexOf(name);
        if (index < 0) {
            throw new IOException(csv + ": no column " + name + " in the header, expected " + LatencyCsv.HEADER);
        }
        return index;
    }

    static Distribution fromHistogramLog(String label, Path hlog, LatencyKind wanted, long sloNs, long windowNs)
            throws IOException {
        Histogram[] totals = {LatencyHistogram.newHistogram(), LatencyHistogram.newHistogram()};
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                if (!(interval instanceof Histogram h)) {
                    continue;
                }
                if (LatencyKind.FROM_SENT.key().equals(h.getTag())) {
                    totals[0].add(h);
                } else if (LatencyKind.FROM_INTENDED.key().equals(h.getTag())) {
                    totals[1].add(h);
                }
            }
        } catch (RuntimeException e) {
            throw new IOException(hlog + ": not a readable HdrHistogram log: " + e.getMessage(), e);
        }
        LatencyKind kind =
                wanted == LatencyKind.FROM_INTENDED && totals[1].getTotalCount() == 0 ? LatencyKind.FROM_SENT : wanted;
        Histogram total = totals[kind == LatencyKind.FROM_SENT ? 0 : 1];
        if (total.getTotalCount() == 0) {
            throw new IOException(hlog + ": no " + kind.key() + " histograms in it");
        }
        double ratio = Double.NaN;
        String sloNote = "n/a: no latencies.csv to recompute it from";
        Path summary = hlog.resolveSibling(RunReport.SUMMARY_JSON);
        if (Files.isRegularFile(summary)) {
            ProbeSummary run = ProbeSummary.read(summary);
            Double recorded = run.slo().of(kind.key()).all().violationRatio();
            double runSlo = run.settings().sloMs();
            double runWindow = run.settings().windowS();
            if (recorded != null) {
                ratio = recorded;
                boolean same = Math.abs(runSlo - sloNs / 1e6) < 1e-9 && Math.abs(runWindow - windowNs / 1e9) < 1e-12;
                sloNote = String.format(
                        Locale.ROOT,
                        "from %s (SLO %s ms, window %s s%s)",
                        RunReport.SUMMARY_JSON,
                        runSlo,
                        runWindow,
                        same ? "" : ": NOT the comparison's");
            }
        }
        return new Distribution(
                label,
                hlog.toString(),
                "run: " + kind.label(),
                total.getTotalCount(),
                total.getMinValue() / 1e6,
                total.getValueAtPercentile(50) / 1e6,
                total.getValueAtPercentile(90) / 1e6,
                total.getValueAtPercentile(99) / 1e6,
                total.getValueAtPercentile(99.9) / 1e6,
                total.getMaxValue() / 1e6,
                CompareReport.HISTOGRAM,
                ratio,
                sloNote,
                Ecdf.ofHistogram(label, total));
    }
}
