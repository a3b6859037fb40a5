package org.itsrt.job.replay;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.itsrt.readings.StudyStation;
import org.itsrt.routing.RouteAdvisor;

/** What a replay measured, rendered as Markdown for summary.md and as a few lines for the console. */
final class ReplayReport {

    static final String PREDICT = "predict";
    static final String ROUTE = "route (A*)";
    static final String PREDICT_AND_ROUTE = "predict + route";

    private final long readings;
    private final RouteAdvisor advisor;
    private final LatencyStages stages = new LatencyStages(PREDICT, ROUTE, PREDICT_AND_ROUTE);
    private final PredictionErrors errors = new PredictionErrors();
    private final Map<List<Long>, RouteTally> routes = new LinkedHashMap<>();
    private long advised;
    private long restarts;

    private static final class RouteTally {
        long count;
        double secondsSum;
    }

    ReplayReport(long readings, RouteAdvisor advisor) {
        this.readings = readings;
        this.advisor = advisor;
    }

    LatencyStages stages() {
        return stages;
    }

    PredictionErrors errors() {
        return errors;
    }

    void count(Advice advice) {
        advised++;
        RouteTally tally = routes.computeIfAbsent(advice.route().vdsIds(), path -> new RouteTally());
        tally.count++;
        tally.secondsSum += advice.route().costSeconds();
    }

    void addRestarts(long count) {
        restarts += count;
    }

    String markdown(Path data, Path model, String engine) {
        StringBuilder md =
                new StringBuilder("# Replay of ").append(data.getFileName()).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                """
                - input: `%s`, %,d readings, replayed in event-time order
                - model: `%s`, engine `%s`
                - advice: %,d (a reading gets advice once its station has 12 consecutive readings); \
                history restarts after gaps: %,d
                - route: %s -> %s, A* on the study graph under each station's latest speed and predicted flow

                """,
                data,
                readings,
                model,
                engine,
                advised,
                restarts,
                name(advisor.originVdsId()),
                name(advisor.destinationVdsId())));
        appendErrors(md);
        appendStages(md);
        appendRoutes(md);
        return md.toString();
    }

    String consoleSummary() {
        PredictionErrors.Sums all = errors.all();
        Histogram total = stages.histograms().get(PREDICT_AND_ROUTE);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "advice for %,d of %,d readings%n", advised, readings));
        if (all.count > 0) {
            s.append(String.format(
                    Locale.ROOT,
                    "next-flow MSE %.1f (MAE %.2f) vs last-value guess MSE %.1f (MAE %.2f), %,d predictions%n",
                    all.modelMse(),
                    all.modelMae(),
                    all.lastValueMse(),
                    all.lastValueMae(),
                    all.count));
        }
        if (total.getTotalCount() > 0) {
            s.append(String.format(
                    Locale.ROOT,
                    "predict + route per reading: p50 %.1f us, p99 %.1f us, max %.1f us%n",
                    micros(total.getValueAtPercentile(50)),
                    micros(total.getValueAtPercentile(99)),
                    micros(total.getMaxValue())));
        }
        routes.forEach((path, tally) -> s.append(String.format(
                Locale.ROOT,
                "route %s: %,d times (%.1f%%)%n",
                names(path),
                tally.count,
                100.0 * tally.count / Math.max(advised, 1))));
        return s.toString();
    }

    private void appendErrors(StringBuilder md) {
        md.append("## Next-interval flow (veh/5 min) against what the station measured next\n\n");
        md.append("The model's prediction beside the naive guess \"next = last\".\n\n");
        md.append("| station | predictions | model MSE | model MAE | last-value MSE | last-value MAE |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        errors.byStation().forEach((id, sums) -> md.append(errorRow(name(id), sums)));
        md.append(errorRow("**all**", errors.all())).append('\n');
    }

    private static String errorRow(String label, PredictionErrors.Sums sums) {
        return String.format(
                Locale.ROOT,
                "| %s | %,d | %.1f | %.2f | %.1f | %.2f |%n",
                label,
                sums.count,
                sums.modelMse(),
                sums.modelMae(),
                sums.lastValueMse(),
                sums.lastValueMae());
    }

    private void appendStages(StringBuilder md) {
        md.append("## Time per reading, by stage (µs)\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Wall-clock time in this process, after the first %,d readings (JIT warm-up). ",
                ReplayCommand.WARM_UP_READINGS));
        md.append("No Kafka and no Flink: this is the work the job does per record, not end-to-end latency.\n\n");
        md.append(
                "| stage | count | p50 | p90 | p99 | p99.9 | max | mean |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        stages.histograms().forEach((stage, h) -> {
            if (h.getTotalCount() > 0) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %,d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                        stage,
                        h.getTotalCount(),
                        micros(h.getValueAtPercentile(50)),
                        micros(h.getValueAtPercentile(90)),
                        micros(h.getValueAtPercentile(99)),
                        micros(h.getValueAtPercentile(99.9)),
                        micros(h.getMaxValue()),
                        h.getMean() / 1000.0));
            }
        });
        md.append('\n');
    }

    private void appendRoutes(StringBuilder md) {
        md.append(
                "## Routes advised\n\n| route | times | share | mean expected travel time (s) |\n|---|---:|---:|---:|\n");
        routes.forEach((path, tally) -> md.append(String.format(
                Locale.ROOT,
                "| %s | %,d | %.1f%% | %.1f |%n",
                names(path),
                tally.count,
                100.0 * tally.count / Math.max(advised, 1),
                tally.secondsSum / tally.count)));
    }

    private static double micros(double nanos) {
        return nanos / 1000.0;
    }

    private static String names(List<Long> path) {
        return path.isEmpty()
                ? "(unreachable)"
                : path.stream().map(ReplayReport::name).collect(Collectors.joining(" > "));
    }

    private static String name(long vdsId) {
        return StudyStation.byVdsId(vdsId).map(StudyStation::displayName).orElse(String.valueOf(vdsId));
    }
}
