package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.itsrt.probe.report.Charts;
import org.itsrt.scheduling.budget.StudyRow;
import org.itsrt.scheduling.budget.StudyRows;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.Styler;

/**
 * The CPU share each of the study's rows gives a CPU-bound domain, per place it was measured: the
 * Xen lab's real schedulers ({@code xen-tcg}) and the host's cgroup quota ({@code host-cgroup-v1}
 * or {@code -v2}). Reads the windows {@code xen-configs/lab/budget-shares.sh} wrote
 * ({@code shares.tsv}: place, repetition, row, sched, parameters, vcpus, expected_cpus,
 * measured_cpus, window_s) and writes {@code shares.md} (rows off what they allow named first),
 * {@code shares.csv} (one line per row and place) and {@code shares.png}/{@code .svg}.
 */
public final class CpuShareReport {

    public static final String MARKDOWN = "shares.md";
    public static final String CSV = "shares.csv";
    public static final String PLOT = "shares";

    static final List<String> COLUMNS = List.of(
            "place", "repetition", "row", "sched", "parameters", "vcpus", "expected_cpus", "measured_cpus", "window_s");

    /**
     * How far a row's mean may be from what it allows and still be called on target: 10 % of it
     * plus 0.05 CPU for the accounting's steps (xentop's 0.1 s, the host's clock ticks) - the lab
     * check's band.
     */
    static final double BAND_RELATIVE = 0.10;

    static final double BAND_ABSOLUTE_CPUS = 0.05;

    /** One measured window. */
    record Window(
            String place,
            int repetition,
            String row,
            String sched,
            String parameters,
            int vcpus,
            double expectedCpus,
            double measuredCpus,
            int windowS) {}

    /** The windows of one row at one place. */
    record Cell(String place, List<Double> measured) {
        double mean() {
            return measured.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }

        double min() {
            return measured.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max() {
            return measured.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /** A row: what it allows and its cells by place, in the order the places first appear. */
    record Row(String name, String sched, String parameters, double expectedCpus, Map<String, Cell> cells) {}

    private CpuShareReport() {}

    /**
     * Reads {@code shares}, writes the report into {@code out}; returns its first line (what went
     * wrong, or that nothing did).
     *
     * @throws IllegalArgumentException naming the file and line when {@code shares} is not such a table
     */
    public static String write(Path shares, Path out, StudyRows studyRows) throws IOException {
        List<Row> rows = rows(read(shares));
        List<String> places = places(rows);
        Files.createDirectories(out);
        String markdown = markdown(rows, places, studyRows, shares);
        Files.writeString(out.resolve(MARKDOWN), markdown);
        Files.writeString(out.resolve(CSV), csv(rows));
        Charts.save(chart(rows, places), out, PLOT);
        return markdown.lines().filter(l -> l.startsWith("**")).findFirst().orElse("");
    }

    static List<Window> read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file (./its xen shares writes it)");
        }
        if (lines.isEmpty() || !List.of(lines.get(0).split("\t", -1)).equals(COLUMNS)) {
            throw new IllegalArgumentException(
                    file + ":1: expected the header line '" + String.join(" ", COLUMNS) + "' (tab-separated)");
        }
        List<Window> windows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] c = lines.get(i).split("\t", -1);
            String where = file + ":" + (i + 1);
            if (c.length != COLUMNS.size()) {
                throw new IllegalArgumentException(
                        where + ": expected " + COLUMNS.size() + " tab-separated columns, got " + c.length);
            }
            try {
                windows.add(new Window(
                        c[0],
                        Integer.parseInt(c[1]),
                        c[2],
                        c[3],
                        c[4],
                        Integer.parseInt(c[5]),
                        Double.parseDouble(c[6]),
                        Double.parseDouble(c[7]),
                        Integer.parseInt(c[8])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": expected numbers in repetition, vcpus, expected_cpus, "
                        + "measured_cpus and window_s: " + e.getMessage());
            }
        }
        if (windows.isEmpty()) {
            throw new IllegalArgumentException(file + ": no measured windows");
        }
        return windows;
    }

    static List<Row> rows(List<Window> windows) {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Window w : windows) {
            Row row = rows.computeIfAbsent(
                    w.row(), n -> new Row(n, w.sched(), w.parameters(), w.expectedCpus(), new LinkedHashMap<>()));
            row.cells()
                    .computeIfAbsent(w.place(), p -> new Cell(p, new ArrayList<>()))
                    .measured()
                    .add(w.measuredCpus());
        }
        return List.copyOf(rows.values());
    }

    static List<String> places(List<Row> rows) {
        List<String> places = new ArrayList<>();
        for (Row row : rows) {
            row.cells().keySet().stream().filter(p -> !places.contains(p)).forEach(places::add);
        }
        // The lab first: it is what the rows were written for.
        places.sort((a, b) -> Boolean.compare(!a.startsWith("xen"), !b.startsWith("xen")));
        return places;
    }

    /** A place's name for readers. */
    static String title(String place) {
        return switch (place) {
            case "xen-tcg" -> "Xen 4.17 under QEMU TCG";
            case "host-cgroup-v1" -> "this host, cgroup v1 quota";
            case "host-cgroup-v2" -> "this host, cgroup v2 cpu.max";
            default -> place;
        };
    }

    static boolean onTarget(Row row, Cell cell) {
        return Math.abs(cell.mean() - row.expectedCpus()) <= BAND_RELATIVE * row.expectedCpus() + BAND_ABSOLUTE_CPUS;
    }

    static String markdown(List<Row> rows, List<String> places, StudyRows studyRows, Path shares) {
        StringBuilder md = new StringBuilder(
                "# CPU share of the study's rows: the real Xen schedulers beside cgroup " + "quotas\n\n");
        List<String> off = new ArrayList<>();
        for (Row row : rows) {
            for (Cell cell : row.cells().values()) {
                if (!onTarget(row, cell)) {
                    off.add(String.format(
                            Locale.ROOT,
                            "%s on %s: %.3f CPUs of %.3f allowed (%+.0f %%)",
                            row.name(),
                            title(cell.place()),
                            cell.mean(),
                            row.expectedCpus(),
                            100 * (cell.mean() / row.expectedCpus() - 1)));
                }
            }
        }
        md.append(
                off.isEmpty()
                        ? "**Every row's mean share is within 10 % + 0.05 CPU of what the row allows, at every place.**\n"
                        : "**" + off.size() + " row(s) off what they allow (by more than 10 % + 0.05 CPU):** "
                                + String.join("; ", off) + ".\n");
        md.append("\nA busy loop on each of the domain's vCPUs; the CPU time it got over each window divided by "
                        + "the window. \"Allows\": RTDS vCPUs x budget / period (extratime 0), a Credit cap / 100, all "
                        + "vCPUs without a cap. Mean (min-max) over the windows; windows from ")
                .append(shares.getFileName())
                .append(". Under QEMU TCG the lab's CPUs are emulated: a share is meaningful, absolute time is "
                        + "not.\n\n");
        md.append("| row | study | scheduler | parameters | allows (CPUs) |");
        places.forEach(p -> md.append(' ').append(title(p)).append(" |"));
        md.append("\n|---|---|---|---|---:|");
        places.forEach(p -> md.append("---:|"));
        md.append('\n');
        for (Row row : rows) {
            Optional<StudyRow> study = studyRows.find(row.name());
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %.3f |",
                    row.name(),
                    study.map(s -> s.source() + (s.studyMaxMs() == null ? "" : ", max " + s.studyMaxMs() + " ms"))
                            .orElse("-"),
                    row.sched(),
                    row.parameters(),
                    row.expectedCpus()));
            for (String place : places) {
                Cell cell = row.cells().get(place);
                md.append(
                        cell == null
                                ? " - |"
                                : String.format(
                                        Locale.ROOT,
                                        " %.3f (%.3f-%.3f), %d%s |",
                                        cell.mean(),
                                        cell.min(),
                                        cell.max(),
                                        cell.measured().size(),
                                        onTarget(row, cell) ? "" : " **off**"));
            }
            md.append('\n');
        }
        md.append("\nEach cell: mean (min-max), windows. ")
                .append(PLOT)
                .append(".png plots each mean against what the row allows.\n");
        return md.toString();
    }

    static String csv(List<Row> rows) {
        StringBuilder csv = new StringBuilder(
                "row,sched,parameters,allowed_cpus,place,windows,mean_cpus,min_cpus,max_cpus,mean_over_allowed\n");
        for (Row row : rows) {
            for (Cell cell : row.cells().values()) {
                csv.append(String.format(
                        Locale.ROOT,
                        "%s,%s,\"%s\",%.3f,%s,%d,%.3f,%.3f,%.3f,%.4f%n",
                        row.name(),
                        row.sched(),
                        row.parameters(),
                        row.expectedCpus(),
                        cell.place(),
                        cell.measured().size(),
                        cell.mean(),
                        cell.min(),
                        cell.max(),
                        cell.mean() / row.expectedCpus()));
            }
        }
        return csv.toString();
    }

    /**
     * Each place's mean against what the row allows, in % of it: the shares themselves differ by
     * a few hundredths of a CPU, which a chart of CPUs would not show.
     */
    private static CategoryChart chart(List<Row> rows, List<String> places) {
        List<String> names = rows.stream().map(Row::name).toList();
        List<String> series = new ArrayList<>();
        List<List<Double>> values = new ArrayList<>();
        for (String place : places) {
            series.add(title(place));
            values.add(rows.stream()
                    .map(r -> r.cells().containsKey(place)
                            ? 100 * (r.cells().get(place).mean() / r.expectedCpus() - 1)
                            : 0.0)
                    .toList());
        }
        CategoryChart chart = Charts.bars(
                "CPU share a busy domain gets against what each study row allows (mean)",
                "study row",
                "measured share - allowed share, % of allowed",
                names,
                series,
                values);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        return chart;
    }
}
