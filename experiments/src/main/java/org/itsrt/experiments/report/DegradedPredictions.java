package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.probe.accuracy.Accuracy;
import org.itsrt.probe.accuracy.RunPredictions;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.MarkdownTable;

/**
 * The section of an experiment's report on the readings the job degraded (docs/deadlines.md):
 * how many per run, and, when the experiment names an {@code accuracy_reference} row, what they
 * cost in accuracy against that row's run of the same repetition ({@link Accuracy}: the squared
 * difference of the served predictions from the LSTM's on the same records). Read from each run's
 * {@code probe/latencies.csv}; also written per run to {@code accuracy.csv}.
 */
final class DegradedPredictions {

    static final String CSV = "accuracy.csv";

    private DegradedPredictions() {}

    /**
     * The Markdown section, or an empty string when no run degraded a reading and the experiment
     * names no reference (a report without degradation is as it was).
     */
    static String section(Path out, ExperimentSpec spec, Map<Row, List<RowRun>> byRow) throws IOException {
        Map<RowRun, RunPredictions> predictions = new HashMap<>();
        long degradedInAll = 0;
        for (List<RowRun> runs : byRow.values()) {
            for (RowRun run : runs) {
                try {
                    RunPredictions read = RunPredictions.read(run.dir().resolve("probe"));
                    predictions.put(run, read);
                    degradedInAll += read.degraded();
                } catch (IOException e) {
                    // A run that measured nothing (or a workload without this file) has no row here.
                }
            }
        }
        String reference = spec.accuracyReference();
        if (degradedInAll == 0 && reference == null) {
            return "";
        }
        Map<Integer, RunPredictions> referenceRuns = new HashMap<>();
        if (reference != null) {
            byRow.forEach((row, runs) -> {
                if (row.label().equals(reference)) {
                    runs.forEach(run -> {
                        if (predictions.containsKey(run)) {
                            referenceRuns.put(run.repetition(), predictions.get(run));
                        }
                    });
                }
            });
        }
        MarkdownTable table = new MarkdownTable(
                reference == null
                        ? List.of("row", "degraded readings, per run")
                        : List.of(
                                "row",
                                "degraded readings, per run",
                                "MSE, all records",
                                "RMSE of the degraded",
                                "LSTM records differing"),
                false,
                false,
                false,
                false,
                true);
        StringBuilder csv = new StringBuilder(
                "row,repetition,records,degraded,degraded_share,mse,mse_degraded,lstm_differing,folder\n");
        for (Map.Entry<Row, List<RowRun>> e : byRow.entrySet()) {
            List<String> degraded = new ArrayList<>();
            List<String> mse = new ArrayList<>();
            List<String> rmseDegraded = new ArrayList<>();
            long differing = 0;
            for (RowRun run : e.getValue()) {
                RunPredictions served = predictions.get(run);
                if (served == null) {
                    degraded.add("-");
                    continue;
                }
                long n = served.degraded();
                int records = served.byRecord().size();
                degraded.add(
                        n == 0
                                ? "0"
                                : String.format(Locale.ROOT, "%,d (%s)", n, Decimals.percent((double) n / records)));
                RunPredictions against = referenceRuns.get(run.repetition());
                Accuracy accuracy = null;
                if (against != null) {
                    try {
                        accuracy = Accuracy.of(against, served);
                    } catch (IllegalArgumentException notComparable) {
                        // The reference degraded readings itself, or the run shares no reading with it:
                        // its cells stay "-" rather than the whole report failing at its end.
                    }
                }
                if (accuracy != null) {
                    mse.add(String.format(Locale.ROOT, "%.3f", accuracy.mse()));
                    rmseDegraded.add(
                            accuracy.degraded() == 0
                                    ? "-"
                                    : String.format(Locale.ROOT, "%.1f", Math.sqrt(accuracy.mseDegraded())));
                    differing += accuracy.lstmDiffering();
                } else {
                    mse.add("-");
                    rmseDegraded.add("-");
                }
                csv.append(String.join(
                                ",",
                                ExperimentReport.quote(e.getKey().label()),
                                Integer.toString(run.repetition()),
                                Integer.toString(records),
                                Long.toString(n),
                                Double.toString((double) n / records),
                                accuracy == null ? "" : Double.toString(accuracy.mse()),
                                accuracy == null || accuracy.degraded() == 0
                                        ? ""
                                        : Double.toString(accuracy.mseDegraded()),
                                accuracy == null ? "" : Long.toString(accuracy.lstmDiffering()),
                                ExperimentReport.quote(out.relativize(run.dir()).toString())))
                        .append('\n');
            }
            table.row(
                    reference == null
                            ? List.of(e.getKey().label(), String.join(", ", degraded))
                            : List.of(
                                    e.getKey().label(),
                                    String.join(", ", degraded),
                                    String.join(", ", mse),
                                    String.join(", ", rmseDegraded),
                                    Long.toString(differing)));
        }
        Files.writeString(out.resolve(CSV), csv, StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder("## Degraded readings");
        md.append(reference == null ? "\n\n" : " and what they cost\n\n");
        md.append("Readings the job predicted with its cheap engine because the LSTM would have missed their deadline "
                + "(`--degrade`, docs/deadlines.md), per run in the order of the repetitions");
        if (reference != null) {
            md.append("; each run's predictions held against those of row `")
                    .append(reference)
                    .append("` (the LSTM alone) in the same repetition, record by record: mean squared "
                            + "difference over all records and root mean square over the degraded ones, in veh/5 min. "
                            + "LSTM records differing counts readings the LSTM served in both runs with other "
                            + "predictions: 0 when the runs replayed the same readings");
        }
        md.append(". Per run: `").append(CSV).append("`.\n\n").append(table).append('\n');
        return md.toString();
    }
}
