package org.itsrt.probe.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.itsrt.probe.report.Ecdf;
import org.itsrt.probe.stats.SortedSample;

/**
 * The study's raw end-to-end latencies (its {@code study-latencies} folder, when you have it): one file per
 * scheduler configuration, one latency per line in TSC cycles of a clock fixed at 2.1 GHz. The
 * files hold no arrival times, so no windowed SLO ratio can be computed from them.
 */
public final class StudyLatencies {

    /** The study's TSC rate: 2.1 GHz with P- and C-states off (docs/study.md, section 1). */
    public static final double STUDY_CYCLES_PER_NS = 2.1;

    private static final Pattern RTDS = Pattern.compile("flink_kafka_rtds_(\\d+)_(\\d+)_latency\\.txt");
    private static final Pattern CREDIT = Pattern.compile("flink_kafka_(credit2?)_(full|partial)_latency\\.txt");

    private StudyLatencies() {}

    /** Whether {@code dir} looks like the study's folder: it holds {@code *_latency.txt} files. */
    public static boolean isStudyFolder(Path dir) throws IOException {
        return !files(dir).isEmpty();
    }

    /** The study's files in {@code dir}, in the order of docs/study.md, section 2: RTDS by budget, descending, then Credit, Credit2. */
    public static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().endsWith("_latency.txt"))
                    .sorted(Comparator.comparingInt(StudyLatencies::group)
                            .thenComparingLong(StudyLatencies::rank)
                            .thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
    }

    /** 0 for RTDS, 1 for Credit and Credit2, 2 for names the study did not use. */
    private static int group(Path file) {
        String name = file.getFileName().toString();
        return RTDS.matcher(name).matches() ? 0 : CREDIT.matcher(name).matches() ? 1 : 2;
    }

    /** RTDS budgets from the largest down; Credit (full, partial) before Credit2. */
    private static long rank(Path file) {
        String name = file.getFileName().toString();
        Matcher rtds = RTDS.matcher(name);
        if (rtds.matches()) {
            return -Long.parseLong(rtds.group(1));
        }
        Matcher credit = CREDIT.matcher(name);
        if (credit.matches()) {
            return ("credit2".equals(credit.group(1)) ? 2 : 0) + ("full".equals(credit.group(2)) ? 0 : 1);
        }
        return 0;
    }

    /**
     * The row label of a study file: {@code study RTDS 100000/100000}, {@code study Credit no cap},
     * {@code study Credit cap 153} (the partial run: 2 vCPUs x 0.7675), {@code study Credit2}; other
     * names keep their file name.
     */
    public static String label(Path file) {
        String name = file.getFileName().toString();
        Matcher rtds = RTDS.matcher(name);
        if (rtds.matches()) {
            return "study RTDS " + rtds.group(1) + "/" + rtds.group(2);
        }
        Matcher credit = CREDIT.matcher(name);
        if (credit.matches()) {
            boolean credit2 = "credit2".equals(credit.group(1));
            boolean full = "full".equals(credit.group(2));
            if (credit2) {
                return full ? "study Credit2" : "study Credit2 partial";
            }
            return full ? "study Credit no cap" : "study Credit cap 153";
        }
        String stem = name.endsWith(".txt") ? name.substring(0, name.length() - 4) : name;
        return "study " + stem;
    }

    /**
     * Reads one file as milliseconds: {@code cycles / (cyclesPerNs * 1e6)}.
     *
     * @throws IOException naming the file and line of a value that is not a number of cycles
     */
    public static double[] readMs(Path file, double cyclesPerNs) throws IOException {
        double[] values = new double[1024];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String line;
            int lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                String text = line.strip();
                if (text.isEmpty()) {
                    continue;
                }
                double cycles;
                try {
                    cycles = Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + lineNumber + ": expected a latency in TSC cycles, found '"
                            + abbreviate(text) + "'");
                }
                if (!(cycles >= 0) || Double.isInfinite(cycles)) {
                    throw new IOException(file + ":" + lineNumber + ": a latency cannot be " + text);
                }
                if (n == values.length) {
                    values = Arrays.copyOf(values, n * 2);
                }
                values[n++] = cycles / (cyclesPerNs * 1e6);
            }
        }
        if (n == 0) {
            throw new IOException(file + ": no latencies in it");
        }
        return Arrays.copyOf(values, n);
    }

    /** One study file as a comparison row. */
    public static Distribution distribution(Path file, double cyclesPerNs) throws IOException {
        SortedSample sample = SortedSample.of(readMs(file, cyclesPerNs));
        String label = label(file);
        return new Distribution(
                label,
                file.toString(),
                "study: consumer receipt - producer stamp (TSC at " + cyclesPerNs + " cycles/ns)",
                sample.count(),
                sample.min(),
                sample.percentile(50),
                sample.percentile(90),
                sample.percentile(99),
                sample.percentile(99.9),
                sample.max(),
                CompareReport.EXACT,
                Double.NaN,
                "n/a: the study's files hold no arrival times",
                Ecdf.ofSorted(label, sample.sortedValues()));
    }

    /** Every study file of {@code dir}, in the order of docs/study.md, section 2. */
    public static List<Distribution> folder(Path dir, double cyclesPerNs) throws IOException {
        List<Distribution> rows = new ArrayList<>();
        for (Path file : files(dir)) {
            rows.add(distribution(file, cyclesPerNs));
        }
        return rows;
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
