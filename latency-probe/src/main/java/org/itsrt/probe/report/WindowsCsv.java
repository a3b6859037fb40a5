package org.itsrt.probe.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.WindowedSlo;

/**
 * {@code windows.csv}: every non-empty SLO window of both latencies, one row each. When the job
 * degraded any record of the run to meet its deadline (docs/deadlines.md), a last column {@code
 * degraded} counts them per window; a run without degradation keeps the file as it always was.
 */
final class WindowsCsv {

    private WindowsCsv() {}

    static void write(Path file, RunStats stats) throws IOException {
        boolean degraded = stats.slo(LatencyKind.FROM_SENT).degraded() > 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("latency,window,start_s,records,p95_ms,max_ms,over_slo,violates" + (degraded ? ",degraded" : "")
                    + "\n");
            for (LatencyKind kind : LatencyKind.values()) {
                WindowedSlo.Report report = stats.slo(kind);
                for (WindowedSlo.Window w : report.nonEmpty()) {
                    out.write(String.join(
                            ",",
                            kind.key(),
                            Long.toString(w.index()),
                            Decimals.fixed(w.index() * report.windowNs() / 1000, 6),
                            Integer.toString(w.count()),
                            Decimals.fixed(w.p95Ns(), 6),
                            Decimals.fixed(w.maxNs(), 6),
                            Integer.toString(w.overSlo()),
                            Boolean.toString(w.p95Ns() > report.sloNs())));
                    if (degraded) {
                        out.write("," + w.degraded());
                    }
                    out.write('\n');
                }
            }
        }
    }
}
