package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.probe.compare.CompareReport;
import org.itsrt.probe.compare.Distribution;
import org.itsrt.probe.compare.RunLatencies;
import org.itsrt.probe.compare.StudyLatencies;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.MarkdownTable;
import org.itsrt.probe.stats.LatencyKind;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The results folder's report: {@code results.md} (the experiment, the environment, the
 * comparison across rows with mean and spread over repetitions, every run), {@code runs.csv}
 * (one line per run), the p99/max-versus-budget plot and the ECDF overlays (one run per row, and
 * the study's distributions where they are given).
 */
public final class ExperimentReport {

    public static final String MARKDOWN = "results.md";
    public static final String CSV = "runs.csv";
    public static final String BUDGET_PLOT = "latency-vs-budget";

    private ExperimentReport() {}

    /** Writes the report; returns the comparison table (Markdown). */
    public static String write(
            Path out,
            ExperimentSpec spec,
            Path specFile,
            List<RowRun> results,
            Map<String, String> environment,
            Path studyDir)
            throws IOException {
        Map<Row, List<RowRun>> byRow = new LinkedHashMap<>();
        for (Row row : spec.rows()) {
            byRow.put(row, new ArrayList<>());
        }
        for (RowRun r : results) {
            byRow.get(r.row()).add(r);
        }
        String table = comparison(spec, byRow);
        Files.writeString(out.resolve(CSV), csv(results), StandardCharsets.UTF_8);
        // Plots and distributions of the runs that measured records; a run whose job never got
        // ready stays in the tables.
        Map<Row, List<RowRun>> measured = new LinkedHashMap<>();
        byRow.forEach((row, runs) -> measured.put(
                row, runs.stream().filter(r -> r.steady().count() > 0).toList()));
        boolean plotted = budgetPlot(out, spec.name(), spec.slo(), measured);
        List<Distribution> ecdfRows = new ArrayList<>();
        long windowNs = Duration.ofSeconds(1).toNanos();
        long sloNs = Math.round(spec.slo().windowP95Ms() * 1e6);
        for (Map.Entry<Row, List<RowRun>> e : measured.entrySet()) {
            if (!e.getValue().isEmpty()) {
                RowRun first = e.getValue().get(0);
                ecdfRows.add(RunLatencies.read(first.dir().resolve("probe"), LatencyKind.FROM_INTENDED, windowNs, sloNs)
                        .withLabel(e.getKey().label() + " (rep 1)"));
            }
        }
        if (studyDir != null && Files.isDirectory(studyDir) && StudyLatencies.isStudyFolder(studyDir)) {
            ecdfRows.addAll(StudyLatencies.folder(studyDir, StudyLatencies.STUDY_CYCLES_PER_NS));
        }
        String ecdfTable = ecdfRows.isEmpty()
                ? ""
                : CompareReport.write(
                        out.resolve("compare"), ecdfRows, spec.slo().windowP95Ms(), 1);

        StringBuilder md = new StringBuilder();
        md.append("# Experiment ").append(spec.name()).append("\n\n");
        if (!spec.description().isBlank()) {
            md.append(spec.description().strip()).append("\n\n");
        }
        md.append(WhatWentWrong.section(spec.slo(), results));
        md.append("## Setup\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Backend `%s`, %d CPU(s) on the real-time side; %,d records per run at "
                        + "%s records/s from each of six detectors; %d repetition(s) per row, each %s; %s. "
                        + "SLO: steady-state p99 <= %s ms and max <= %s ms; the SLO ratio is the share of 1 s "
                        + "windows whose p95 is over %s ms (the study's measure: 0%% is best). "
                        + "Experiment file: `%s` (copied here as `experiment.yaml`).%n%n",
                spec.backend().yamlName,
                spec.vcpus(),
                spec.records(),
                fmt(spec.load().rateHz()),
                spec.repetitions(),
                whereRunsRan(spec.rows().get(0).plan().stack()),
                spec.warmupDescription(),
                fmt(spec.slo().p99Ms()),
                fmt(spec.slo().maxMs()),
                fmt(spec.slo().windowP95Ms()),
                specFile));
        md.append("## Comparison (steady state, ms from the intended send time; mean over repetitions, "
                + "[min-max] where more than one)\n\n");
        md.append(table).append('\n');
        if (plotted) {
            md.append("![p99 and max against the budget](")
                    .append(BUDGET_PLOT)
                    .append(".png) ([SVG](")
                    .append(BUDGET_PLOT)
                    .append(".svg))\n\n");
        }
        if (!ecdfTable.isEmpty()) {
            md.append("## Distributions (first repetition of each row")
                    .append(studyDir != null && Files.isDirectory(studyDir) ? ", and the study's runs" : "")
                    .append("; whole run, ms from intended)\n\n");
            md.append(ecdfTable).append('\n');
            md.append("![ECDF](compare/")
                    .append(CompareReport.ECDF_LOG)
                    .append(".png) - more in [compare/](compare/")
                    .append(CompareReport.MARKDOWN)
                    .append(")\n\n");
        }
        md.append(DegradedPredictions.section(out, spec, byRow));
        md.append("## Every run\n\n").append(perRun(results)).append('\n');
        md.append("## Rows as applied\n\n");
        for (Row row : spec.rows()) {
            md.append("- `")
                    .append(row.label())
                    .append("`: ")
                    .append(org.itsrt.pipeline.budget.Budgets.describeWithJob(row.plan()))
                    .append('\n');
        }
        md.append("\nWhat each run's backend set and measured: `runs/*/rep-*/applied.json`.\n\n");
        md.append("## Environment\n\n");
        MarkdownTable env = new MarkdownTable(List.of("fact", "value"));
        environment.forEach((k, v) -> env.row(List.of(k, v)));
        md.append(env).append('\n');
        Files.writeString(out.resolve(MARKDOWN), md.toString(), StandardCharsets.UTF_8);
        return table;
    }

    /**
     * Where each run's stack came from: started for the run, or one that runs already (the
     * lab's, a Compose stack's), which only gets a new job per run.
     */
    static String whereRunsRan(org.itsrt.pipeline.plan.StackPlan stack) {
        String servers = stack.broker().bootstrapServers();
        java.net.URI rest = stack.flink().rest();
        if (servers == null && rest == null && stack.cluster() == null) {
            return "on a fresh broker and Flink cluster";
        }
        String kafka = servers != null
                ? "the Kafka at " + servers
                : stack.cluster() != null ? "the brokers of the cluster in " + stack.cluster() : "a fresh broker";
        String flink = rest != null
                ? "the Flink cluster at " + rest
                : stack.cluster() != null ? "the Flink cluster in " + stack.cluster() : "a fresh Flink cluster";
        return "a new job on " + kafka + " and " + flink;
    }

    static String comparison(ExperimentSpec spec, Map<Row, List<RowRun>> byRow) {
        MarkdownTable t = new MarkdownTable(
                List.of("row", "budget", "runs", "p50", "p99", "p99.9", "max", "SLO ratio", "throttled", "meets SLO"),
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                false);
        for (Map.Entry<Row, List<RowRun>> e : byRow.entrySet()) {
            List<RowRun> runs = e.getValue();
            Row row = e.getKey();
            String budget = Double.isNaN(row.utilization())
                    ? "-"
                    : String.format(Locale.ROOT, "%.2f%%", row.utilization() * 100);
            if (runs.isEmpty()) {
                t.row(List.of(row.label(), budget, "0", "", "", "", "", "", "", "not run"));
                continue;
            }
            long met = runs.stream()
                    .filter(r -> r.meets(spec.slo().p99Ms(), spec.slo().maxMs()))
                    .count();
            t.row(List.of(
                    row.label(),
                    budget,
                    Integer.toString(runs.size()),
                    spread(runs, r -> r.steady().p50()),
                    spread(runs, r -> r.steady().p99()),
                    spread(runs, r -> r.steady().p999()),
                    spread(runs, r -> r.steady().max()),
                    percent(runs, RowRun::sloViolationRatio),
                    percent(runs, ExperimentReport::throttled),
                    met == runs.size() ? "yes" : met == 0 ? "no" : met + " of " + runs.size()));
        }
        return t.toString();
    }

    private static String perRun(List<RowRun> results) {
        MarkdownTable t = new MarkdownTable(
                List.of(
                        "row",
                        "rep",
                        "exit",
                        "count",
                        "p50",
                        "p90",
                        "p99",
                        "p99.9",
                        "max",
                        "all: p99",
                        "all: max",
                        "lost",
                        "throttled",
                        "folder"),
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                false);
        for (RowRun r : results) {
            t.row(List.of(
                    r.row().label(),
                    Integer.toString(r.repetition()),
                    Integer.toString(r.exitCode()),
                    String.format(Locale.ROOT, "%,d", r.steady().count()),
                    ms(r.steady().p50()),
                    ms(r.steady().p90()),
                    ms(r.steady().p99()),
                    ms(r.steady().p999()),
                    ms(r.steady().max()),
                    ms(r.all().p99()),
                    ms(r.all().max()),
                    Long.toString(r.lost()),
                    Double.isNaN(throttled(r)) ? "-" : String.format(Locale.ROOT, "%.1f%%", throttled(r) * 100),
                    "`" + r.dir().getParent().getFileName() + "/" + r.dir().getFileName() + "`"));
        }
        return t.toString();
    }

    static String csv(List<RowRun> results) {
        StringBuilder csv = new StringBuilder("row,budget_us,period_us,repetition,exit_code,count,p50_ms,p90_ms,p99_ms,"
                + "p99_9_ms,max_ms,all_p99_ms,all_max_ms,slo_violation_ratio,lost,throttled_share,warmup_records,"
                + "warmup_p99_ms,settled_after_s,folder\n");
        for (RowRun r : results) {
            csv.append(String.join(
                            ",",
                            quote(r.row().label()),
                            str(r.row().budgetUs()),
                            str(r.row().periodUs()),
                            Integer.toString(r.repetition()),
                            Integer.toString(r.exitCode()),
                            Long.toString(r.steady().count()),
                            num(r.steady().p50()),
                            num(r.steady().p90()),
                            num(r.steady().p99()),
                            num(r.steady().p999()),
                            num(r.steady().max()),
                            num(r.all().p99()),
                            num(r.all().max()),
                            num(r.sloViolationRatio()),
                            Long.toString(r.lost()),
                            num(throttled(r)),
                            Long.toString(r.warmup().records()),
                            num(r.warmup().p99Ms()),
                            num(r.warmup().settledAfterS()),
                            quote(r.dir().toString())))
                    .append('\n');
        }
        return csv.toString();
    }

    /**
     * p99 and max (mean over repetitions, each run as a dot) against the budget's share of a CPU,
     * one line per period: the same share with another period is another configuration.
     */
    static boolean budgetPlot(Path out, String name, ExperimentSpec.Slo slo, Map<Row, List<RowRun>> byRow)
            throws IOException {
        Map<Long, List<Map.Entry<Row, List<RowRun>>>> byPeriod =
                new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
        List<Double> allX = new ArrayList<>();
        List<Double> dotsX = new ArrayList<>();
        List<Double> dotsP99 = new ArrayList<>();
        List<Double> dotsMax = new ArrayList<>();
        for (Map.Entry<Row, List<RowRun>> e : byRow.entrySet()) {
            double u = e.getKey().utilization();
            if (Double.isNaN(u) || e.getValue().isEmpty()) {
                continue;
            }
            byPeriod.computeIfAbsent(e.getKey().periodUs(), k -> new ArrayList<>())
                    .add(e);
            allX.add(u * 100);
            for (RowRun r : e.getValue()) {
                dotsX.add(u * 100);
                dotsP99.add(r.steady().p99());
                dotsMax.add(r.steady().max());
            }
        }
        if (allX.size() < 2) {
            return false;
        }
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("Steady-state p99 and max against the budget (" + name + ")")
                .xAxisTitle("budget, % of one CPU per CPU (budget / period)")
                .yAxisTitle("latency (ms)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        for (Map.Entry<Long, List<Map.Entry<Row, List<RowRun>>>> period : byPeriod.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> max = new ArrayList<>();
            for (Map.Entry<Row, List<RowRun>> e : period.getValue()) {
                x.add(e.getKey().utilization() * 100);
                p99.add(mean(e.getValue(), r -> r.steady().p99()));
                max.add(mean(e.getValue(), r -> r.steady().max()));
            }
            String suffix = byPeriod.size() > 1 ? ", period " + periodText(period.getKey()) : "";
            chart.addSeries("p99 (mean)" + suffix, sorted(x, p99)[0], sorted(x, p99)[1])
                    .setMarker(SeriesMarkers.CIRCLE);
            chart.addSeries("max (mean)" + suffix, sorted(x, max)[0], sorted(x, max)[1])
                    .setMarker(SeriesMarkers.DIAMOND);
        }
        if (dotsX.size() > allX.size()) {
            chart.addSeries("p99 (each run)", dotsX, dotsP99)
                    .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            chart.addSeries("max (each run)", dotsX, dotsMax)
                    .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        chart.addSeries("SLO p99", List.of(minOf(allX), maxOf(allX)), List.of(slo.p99Ms(), slo.p99Ms()))
                .setMarker(SeriesMarkers.NONE);
        chart.addSeries("SLO max", List.of(minOf(allX), maxOf(allX)), List.of(slo.maxMs(), slo.maxMs()))
                .setMarker(SeriesMarkers.NONE);
        Charts.save(chart, out, BUDGET_PLOT);
        return true;
    }

    private static String periodText(long us) {
        return us % 1000 == 0 ? (us / 1000) + " ms" : us + " us";
    }

    @SuppressWarnings("unchecked")
    private static List<Double>[] sorted(List<Double> x, List<Double> y) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            idx.add(i);
        }
        idx.sort((a, b) -> Double.compare(x.get(a), x.get(b)));
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i : idx) {
            xs.add(x.get(i));
            ys.add(y.get(i));
        }
        return new List[] {xs, ys};
    }

    private static double minOf(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }

    private static double maxOf(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    static double throttled(RowRun r) {
        Object share = r.applied().get("throttled_share");
        return share instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static double mean(List<RowRun> runs, ToDoubleFunction<RowRun> f) {
        return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    /** Mean, and [min-max] over repetitions when there is more than one. */
    static String spread(List<RowRun> runs, ToDoubleFunction<RowRun> f) {
        DoubleSummaryStatistics s = runs.stream().mapToDouble(f).summaryStatistics();
        return runs.size() == 1
                ? ms(s.getAverage())
                : String.format(Locale.ROOT, "%s [%s-%s]", ms(s.getAverage()), ms(s.getMin()), ms(s.getMax()));
    }

    private static String percent(List<RowRun> runs, ToDoubleFunction<RowRun> f) {
        double m = mean(runs, f);
        return Double.isNaN(m) ? "-" : String.format(Locale.ROOT, "%.1f%%", m * 100);
    }

    static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6f", v);
    }

    private static String str(Long v) {
        return v == null ? "" : v.toString();
    }

    /** A CSV cell in double quotes, quotes inside doubled. */
    static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
