package org.itsrt.producers.send;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one replay (or one sweep step) sent, and how it went, as a Markdown report. {@code target}
 * and {@code sent} count every record; {@code warmupTarget} and {@code warmupSent} the warm-up
 * records among them.
 */
public record RunSummary(
        int detectors,
        double ratePerDetector,
        long target,
        long sent,
        long warmupTarget,
        long warmupSent,
        long acked,
        long failed,
        String firstError,
        double seconds,
        Histogram sendLagNs,
        Histogram ackLatencyNs) {

    public static RunSummary of(SendStats stats, int detectors, double ratePerDetector, long target) {
        return of(stats, detectors, ratePerDetector, target, 0);
    }

    /** @param target every record, {@code warmupTarget} of them warm-up records */
    public static RunSummary of(
            SendStats stats, int detectors, double ratePerDetector, long target, long warmupTarget) {
        return new RunSummary(
                detectors,
                ratePerDetector,
                target,
                stats.sent(),
                warmupTarget,
                stats.warmupSent(),
                stats.acked(),
                stats.failed(),
                stats.firstError(),
                stats.activeSeconds(),
                stats.sendLagNs(),
                stats.ackLatencyNs());
    }

    /** Records per second over the active span; the span holds sent - 1 intervals. */
    public double achievedRate() {
        return sent > 1 && seconds > 0 ? (sent - 1) / seconds : Double.NaN;
    }

    public String markdown(String topic, String bootstrap, Path data, String clock, Map<String, Object> config) {
        StringBuilder md = new StringBuilder("# Producer run\n\n");
        md.append(String.format(Locale.ROOT, "- topic `%s` on `%s`; data `%s`%n", topic, bootstrap, data));
        md.append(String.format(
                Locale.ROOT,
                "- %d detectors at %s records/s each, open loop; %,d of %,d records sent over %.1f s (%,.1f/s)%n",
                detectors,
                num(ratePerDetector),
                sent,
                target,
                seconds,
                achievedRate()));
        if (warmupTarget > 0) {
            md.append(String.format(
                    Locale.ROOT,
                    "- of which warm-up %,d of %,d (flagged, first), measured %,d of %,d%n",
                    warmupSent,
                    warmupTarget,
                    sent - warmupSent,
                    target - warmupTarget));
        }
        md.append(String.format(
                Locale.ROOT,
                "- acknowledged %,d, failed %,d%s%n",
                acked,
                failed,
                firstError == null ? "" : " (first error: " + firstError + ")"));
        md.append("- clock: ").append(clock).append('\n');
        md.append(settings(config)).append('\n');
        md.append("\n| ms | count | p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|\n");
        md.append(row("send lag (sent - intended)", sendLagNs));
        md.append(row("acknowledgement (ack - sent)", ackLatencyNs));
        return md.toString();
    }

    public static String sweepMarkdown(
            List<RunSummary> steps, String topic, String bootstrap, String clock, Map<String, Object> config) {
        StringBuilder md = new StringBuilder("# Producer rate sweep\n\n");
        md.append(String.format(Locale.ROOT, "- topic `%s` on `%s`; clock: %s%n", topic, bootstrap, clock));
        md.append(settings(config)).append("\n\n");
        md.append(
                "| target rec/s | achieved rec/s | sent | acked | failed | send lag p99 ms | ack p50 ms | ack p99 ms | ack max ms |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunSummary s : steps) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %,.0f | %,.0f | %,d | %,d | %,d | %.2f | %.2f | %.2f | %.2f |%n",
                    s.ratePerDetector * s.detectors,
                    s.achievedRate(),
                    s.sent,
                    s.acked,
                    s.failed,
                    ms(s.sendLagNs, 99),
                    ms(s.ackLatencyNs, 50),
                    ms(s.ackLatencyNs, 99),
                    s.ackLatencyNs.getMaxValue() / 1e6));
        }
        return md.toString();
    }

    private static String settings(Map<String, Object> config) {
        return String.format(
                Locale.ROOT,
                "- producer: linger.ms=%s, acks=%s, enable.idempotence=%s, compression.type=%s",
                config.get("linger.ms"),
                config.get("acks"),
                config.get("enable.idempotence"),
                config.get("compression.type"));
    }

    private static String row(String name, Histogram h) {
        return String.format(
                Locale.ROOT,
                "| %s | %,d | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                name,
                h.getTotalCount(),
                ms(h, 50),
                ms(h, 90),
                ms(h, 99),
                ms(h, 99.9),
                h.getMaxValue() / 1e6);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
