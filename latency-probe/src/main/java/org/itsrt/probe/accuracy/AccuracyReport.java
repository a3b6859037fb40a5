package org.itsrt.probe.accuracy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.MarkdownTable;

/** {@code accuracy.md} and {@code accuracy.csv}: served runs' predictions against an all-LSTM reference. */
public final class AccuracyReport {

    public static final String MARKDOWN = "accuracy.md";
    public static final String CSV = "accuracy.csv";

    static final String CSV_HEADER = "run,records,matched,degraded,degraded_share,mse,rmse,mse_degraded,"
            + "max_abs_degraded,reference_mean_flow,lstm_differing,max_abs_lstm";

    private AccuracyReport() {}

    /** Writes both files into {@code dir}; returns the table. */
    public static String write(Path dir, RunPredictions reference, List<Accuracy> rows) throws IOException {
        Files.createDirectories(dir);
        String table = table(rows);
        Files.writeString(dir.resolve(MARKDOWN), markdown(reference, rows, table), StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (Accuracy a : rows) {
            csv.append(String.join(
                            ",",
                            a.label().replace(',', ' '),
                            Long.toString(a.records()),
                            Long.toString(a.matched()),
                            Long.toString(a.degraded()),
                            number(a.degradedShare()),
                            number(a.mse()),
                            number(a.rmse()),
                            number(a.mseDegraded()),
                            number(a.maxAbsDegraded()),
                            number(a.referenceMeanFlow()),
                            Long.toString(a.lstmDiffering()),
                            number(a.maxAbsLstm())))
                    .append('\n');
        }
        Files.writeString(dir.resolve(CSV), csv, StandardCharsets.UTF_8);
        return table;
    }

    static String table(List<Accuracy> rows) {
        MarkdownTable table = new MarkdownTable(
                List.of(
                        "run",
                        "records",
                        "degraded",
                        "MSE",
                        "RMSE",
                        "MSE of degraded",
                        "max error, degraded",
                        "LSTM records differing"),
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true);
        for (Accuracy a : rows) {
            table.row(List.of(
                    a.label(),
                    String.format(Locale.ROOT, "%,d of %,d", a.matched(), a.records()),
                    String.format(Locale.ROOT, "%,d (%s)", a.degraded(), Decimals.percent(a.degradedShare())),
                    fixed(a.mse(), 3),
                    fixed(a.rmse(), 3),
                    fixed(a.mseDegraded(), 1),
                    fixed(a.maxAbsDegraded(), 1),
                    a.lstmDiffering() == 0
                            ? "0"
                            : String.format(Locale.ROOT, "%,d (max %s)", a.lstmDiffering(), fixed(a.maxAbsLstm(), 3))));
        }
        return table.toString();
    }

    private static String markdown(RunPredictions reference, List<Accuracy> rows, String table) {
        StringBuilder md = new StringBuilder("# Accuracy of the served predictions\n\n");
        md.append("Each run's predictions against those of the reference `")
                .append(reference.label())
                .append("` (")
                .append(String.format(Locale.ROOT, "%,d", reference.byRecord().size()))
                .append(" records, all predicted by the LSTM) on the same records, matched by detector and "
                        + "sequence number; records only one run measured are left out. Flows and errors in veh/5 min, "
                        + "squared errors in (veh/5 min)^2. MSE is over every matched record: what serving some of "
                        + "them with the cheap engine cost the run as a whole; MSE of degraded is over the degraded "
                        + "ones alone.\n\n");
        md.append(table);
        long differing = rows.stream().mapToLong(Accuracy::lstmDiffering).sum();
        md.append('\n');
        if (differing > 0) {
            md.append("**Not the same records:** ")
                    .append(differing)
                    .append(" records the LSTM served in both runs have different predictions, so the runs did not "
                            + "replay the same readings, or used another model or engine; their differences are "
                            + "counted in MSE.\n");
        } else {
            md.append("Every record the LSTM served in both runs has the same prediction in both: the runs replayed "
                    + "the same readings with the same model and engine.\n");
        }
        return md.toString();
    }

    private static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : Double.toString(value);
    }
}
