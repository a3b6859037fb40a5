package org.itsrt.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.fuzz.CampaignResult.KindRow;
import org.itsrt.fuzz.CampaignResult.ReasonRow;

/**
 * A district campaign's report folder: {@value FuzzReport#MARKDOWN} (the expectations, then per
 * stream the records sent by kind and the dead letters by reason, the two jobs, the answers
 * against the clean run) and {@value FuzzReport#KINDS_CSV}, {@value FuzzReport#REASONS_CSV},
 * {@value FuzzReport#DIFFERENCES_CSV}, each with a {@code stream} column.
 */
public final class DistrictFuzzReport {

    private final DistrictCampaignResult result;

    public DistrictFuzzReport(DistrictCampaignResult result) {
        this.result = result;
    }

    /** Writes every file into {@code dir}; returns the markdown. */
    public String write(Path dir, List<String> facts) throws IOException {
        Files.createDirectories(dir);
        String markdown = markdown(facts);
        Files.writeString(dir.resolve(FuzzReport.MARKDOWN), markdown);
        List<String> kinds =
                new ArrayList<>(List.of("stream,kind,expected,sent,as_expected,other_reason,more_than_once,lost"));
        result.kinds()
                .forEach((stream, rows) -> rows.forEach(r -> kinds.add(String.join(
                        ",",
                        FuzzReport.csv(stream),
                        FuzzReport.csv(r.kind()),
                        FuzzReport.csv(r.expected()),
                        Long.toString(r.sent()),
                        Long.toString(r.asExpected()),
                        Long.toString(r.wrongReason()),
                        Long.toString(r.duplicates()),
                        Long.toString(r.lost())))));
        Files.write(dir.resolve(FuzzReport.KINDS_CSV), kinds);
        List<String> reasons = new ArrayList<>(List.of("stream,category,expected,received,example"));
        result.reasons()
                .forEach((stream, rows) -> rows.forEach(r -> reasons.add(String.join(
                        ",",
                        FuzzReport.csv(stream),
                        FuzzReport.csv(r.category()),
                        Long.toString(r.expected()),
                        Long.toString(r.received()),
                        FuzzReport.csv(r.example())))));
        Files.write(dir.resolve(FuzzReport.REASONS_CSV), reasons);
        List<String> differences = new ArrayList<>(List.of("record,field,clean,fuzz"));
        result.differences()
                .forEach(d -> differences.add(FuzzReport.csv(d.record()) + "," + FuzzReport.csv(d.field()) + ","
                        + FuzzReport.csv(d.clean()) + "," + FuzzReport.csv(d.fuzz())));
        Files.write(dir.resolve(FuzzReport.DIFFERENCES_CSV), differences);
        return markdown;
    }

    String markdown(List<String> facts) {
        StringBuilder md = new StringBuilder("# Fuzz campaign: district\n\n");
        facts.forEach(f -> md.append("- ").append(f).append('\n'));
        md.append("\n## Expectations: ")
                .append(result.passed() ? "all held" : "FAILED")
                .append("\n\n| expectation | held | detail |\n|---|---|---|\n");
        result.checks().forEach(c -> md.append("| ")
                .append(c.expectation())
                .append(" | ")
                .append(c.held() ? "yes" : "**no**")
                .append(" | ")
                .append(FuzzReport.cell(c.detail()))
                .append(" |\n"));
        for (Map.Entry<String, List<KindRow>> stream : result.kinds().entrySet()) {
            md.append("\n## ")
                    .append(stream.getKey())
                    .append(": sent by kind\n\n")
                    .append("| kind | expected | sent | as expected | other reason | more than once | lost |\n")
                    .append("|---|---|--:|--:|--:|--:|--:|\n");
            for (KindRow r : stream.getValue()) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %,d | %,d | %,d | %,d | %,d |%n",
                        r.kind(),
                        r.expected(),
                        r.sent(),
                        r.asExpected(),
                        r.wrongReason(),
                        r.duplicates(),
                        r.lost()));
            }
            md.append("\n## ")
                    .append(stream.getKey())
                    .append(": dead letters by reason\n\n")
                    .append("| reason (category) | expected | received | example |\n|---|--:|--:|---|\n");
            for (ReasonRow r : result.reasons().get(stream.getKey())) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %,d | %,d | %s |%n",
                        r.category(),
                        r.expected(),
                        r.received(),
                        FuzzReport.cell(abbreviate(r.example()))));
            }
        }
        md.append("\n## The job\n\n| run | readings sent | requests sent | state | restarts | predictions | answers "
                        + "| dead letters | time |\n")
                .append("|---|--:|--:|---|--:|--:|--:|--:|--:|\n");
        for (DistrictJobRun.Outcome run : List.of(result.clean(), result.fuzz())) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %,d | %s | %d | %,d | %,d | %,d | %.0f s |%n",
                    run.name(),
                    run.readingsSent().size(),
                    run.requestsSent().size(),
                    run.job().state(),
                    run.job().restarts(),
                    run.predictions().size(),
                    run.routes().size(),
                    run.readingDeadLetters().size() + run.requestDeadLetters().size(),
                    run.took().toMillis() / 1e3));
        }
        md.append("\nLost (an expected prediction, answer or dead letter that never came): ")
                .append(String.format(Locale.ROOT, "%,d", result.lost()))
                .append(".\n\n## Against the clean run\n\n")
                .append("Predictions are compared exactly (predicted_flow by detector and seq). Answers by stream and "
                        + "seq: where both carry the same network_version they saw the same costs, and outcome, route "
                        + "and travel_time_s must be equal; where the versions differ (a cost update and a request "
                        + "reach the router on two inputs, docs/fuzz.md) only the outcome is compared.\n");
        result.differences().stream().limit(FuzzReport.DIFFERENCES_SHOWN).forEach(d -> md.append("\n- ")
                .append(d.record())
                .append(", ")
                .append(d.field())
                .append(": clean ")
                .append(FuzzReport.cell(d.clean()))
                .append(", fuzz ")
                .append(FuzzReport.cell(d.fuzz())));
        return md.append('\n').toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 160 ? text : text.substring(0, 160) + "...";
    }
}
