package org.itsrt.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A campaign's report folder: {@value #MARKDOWN} (the tables) and the CSVs behind it,
 * {@value #KINDS_CSV}, {@value #REASONS_CSV} and {@value #DIFFERENCES_CSV}.
 */
public final class FuzzReport {

    public static final String MARKDOWN = "fuzz.md";
    public static final String KINDS_CSV = "kinds.csv";
    public static final String REASONS_CSV = "reasons.csv";
    public static final String DIFFERENCES_CSV = "differences.csv";

    /** Differences fuzz.md lists; the CSV has all. */
    static final int DIFFERENCES_SHOWN = 10;

    private final CampaignResult result;

    public FuzzReport(CampaignResult result) {
        this.result = result;
    }

    /** Writes every file into {@code dir}; returns fuzz.md's text. */
    public String write(Path dir, List<String> facts) throws IOException {
        Files.createDirectories(dir);
        String markdown = markdown(facts);
        Files.writeString(dir.resolve(MARKDOWN), markdown);
        Files.writeString(dir.resolve(KINDS_CSV), kindsCsv());
        Files.writeString(dir.resolve(REASONS_CSV), reasonsCsv());
        Files.writeString(dir.resolve(DIFFERENCES_CSV), differencesCsv());
        return markdown;
    }

    String markdown(List<String> facts) {
        StringBuilder md = new StringBuilder("# Fuzz campaign\n\n");
        for (String fact : facts) {
            md.append("- ").append(fact).append('\n');
        }
        md.append("\n## Expectations: ")
                .append(result.passed() ? "all held" : "FAILED")
                .append("\n\n| expectation | held | detail |\n|---|---|---|\n");
        for (CampaignResult.Check check : result.checks()) {
            md.append("| ")
                    .append(check.expectation())
                    .append(" | ")
                    .append(check.held() ? "yes" : "**no**")
                    .append(" | ")
                    .append(cell(check.detail()))
                    .append(" |\n");
        }
        md.append("\n## Sent by kind\n\n")
                .append("| kind | expected | sent | as expected | other reason | more than once | lost |\n")
                .append("|---|---|--:|--:|--:|--:|--:|\n");
        long[] totals = new long[5];
        for (CampaignResult.KindRow row : result.kinds()) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %,d | %,d | %,d | %,d | %,d |%n",
                    row.kind(),
                    row.expected(),
                    row.sent(),
                    row.asExpected(),
                    row.wrongReason(),
                    row.duplicates(),
                    row.lost()));
            totals[0] += row.sent();
            totals[1] += row.asExpected();
            totals[2] += row.wrongReason();
            totals[3] += row.duplicates();
            totals[4] += row.lost();
        }
        md.append(String.format(
                Locale.ROOT,
                "| **all** | | %,d | %,d | %,d | %,d | %,d |%n",
                totals[0],
                totals[1],
                totals[2],
                totals[3],
                totals[4]));
        md.append("\n## Dead letters by reason\n\n")
                .append("| reason (category) | expected | received | example |\n|---|--:|--:|---|\n");
        for (CampaignResult.ReasonRow row : result.reasons()) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %,d | %s |%n",
                    row.category(),
                    row.expected(),
                    row.received(),
                    cell(abbreviate(row.example()))));
        }
        md.append("\n## The job\n\n| run | records sent | state | restarts | advice | dead letters | time |\n")
                .append("|---|--:|---|--:|--:|--:|--:|\n");
        for (JobRun.Outcome run : List.of(result.clean(), result.fuzz())) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %s | %s | %,d | %,d | %.0f s |%n",
                    run.name(),
                    run.sent().size(),
                    run.job().state(),
                    run.job().restarts() < 0
                            ? "unknown"
                            : Long.toString(run.job().restarts()),
                    run.advice().size(),
                    run.deadLetters().size(),
                    run.took().toMillis() / 1e3));
        }
        md.append("\nLost (an expected advice or dead letter that never came): ")
                .append(String.format(Locale.ROOT, "%,d", result.lost()))
                .append(".\n");
        md.append("\n## Advice against the clean run\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "Equal: **%s** (%,d readings compared by detector and seq: predicted_flow, route, "
                                + "route_cost_s; %,d differences).%n",
                        result.adviceEqual() ? "yes" : "no",
                        result.compared(),
                        result.differences().size()));
        if (!result.differences().isEmpty()) {
            md.append("\n| detector | seq | field | clean run | fuzz run |\n|--:|--:|---|---|---|\n");
            result.differences().stream()
                    .limit(DIFFERENCES_SHOWN)
                    .forEach(d -> md.append(String.format(
                            Locale.ROOT,
                            "| %d | %d | %s | %s | %s |%n",
                            d.detector(),
                            d.seq(),
                            d.field(),
                            cell(d.clean()),
                            cell(d.fuzz()))));
        }
        return md.toString();
    }

    private String kindsCsv() {
        List<String> lines = new ArrayList<>();
        lines.add("kind,expected,sent,as_expected,other_reason,more_than_once,lost");
        for (CampaignResult.KindRow row : result.kinds()) {
            lines.add(String.join(
                    ",",
                    csv(row.kind()),
                    csv(row.expected()),
                    Long.toString(row.sent()),
                    Long.toString(row.asExpected()),
                    Long.toString(row.wrongReason()),
                    Long.toString(row.duplicates()),
                    Long.toString(row.lost())));
        }
        return String.join("\n", lines) + "\n";
    }

    private String reasonsCsv() {
        List<String> lines = new ArrayList<>();
        lines.add("category,expected,received,example");
        for (CampaignResult.ReasonRow row : result.reasons()) {
            lines.add(String.join(
                    ",",
                    csv(row.category()),
                    Long.toString(row.expected()),
                    Long.toString(row.received()),
                    csv(abbreviate(row.example()))));
        }
        return String.join("\n", lines) + "\n";
    }

    private String differencesCsv() {
        List<String> lines = new ArrayList<>();
        lines.add("detector,seq,field,clean,fuzz");
        for (CampaignResult.Difference d : result.differences()) {
            lines.add(d.detector() + "," + d.seq() + "," + d.field() + "," + csv(d.clean()) + "," + csv(d.fuzz()));
        }
        return String.join("\n", lines) + "\n";
    }

    /** Sent records per kind, for the console. */
    public static String sentLine(Map<FuzzKind, Integer> counts) {
        StringBuilder line = new StringBuilder();
        counts.forEach((kind, n) -> line.append(line.length() == 0 ? "" : ", ")
                .append(kind.label())
                .append(' ')
                .append(n));
        return line.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 160 ? text : text.substring(0, 160) + "...";
    }

    /** A markdown table cell: pipes escaped, on one line. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A CSV field: quoted, quotes doubled, on one line (dead-letter reasons may hold anything). */
    static String csv(String text) {
        return "\"" + text.replace("\"", "\"\"").replace("\n", " ") + "\"";
    }

    /**
     * The lines fuzz.md starts with: when and what was sent, the warm-up, the stack, the topics,
     * the two runs compared, the Kafka clients' settings.
     *
     * @param kindRecords malformed or edge-case records sent among the valid readings
     */
    public static List<String> facts(
            java.time.Instant start,
            String stack,
            CampaignPlan plan,
            int kindRecords,
            long seed,
            org.itsrt.kafka.KafkaClientConfig clientConfig) {
        List<String> facts = new ArrayList<>();
        facts.add("started " + start + ", "
                + String.format(Locale.ROOT, "%,d", plan.records().size())
                + " records: " + String.format(Locale.ROOT, "%,d", plan.validReadings()) + " valid readings and "
                + String.format(Locale.ROOT, "%,d", kindRecords) + " of the kinds below, seed " + seed);
        if (!plan.warmup().isEmpty()) {
            facts.add("warm-up: "
                    + String.format(Locale.ROOT, "%,d", plan.warmup().size())
                    + " valid readings flagged as warm-up records first in each run, in lockstep; left out of the "
                    + "comparison and every count below");
        }
        facts.add("stack: " + stack);
        facts.add("topics: " + org.itsrt.records.Topics.READINGS + " -> " + org.itsrt.records.Topics.ADVICE + ", "
                + org.itsrt.records.Topics.DEAD_LETTERS);
        facts.add("clean run: a fresh job given only the records it must advise, in the same order; then the fuzz "
                + "run, another fresh job given every record; both at parallelism 1, one reading at a time "
                + "(docs/fuzz.md)");
        if (!clientConfig.isEmpty()) {
            facts.add("Kafka clients: " + clientConfig.describe());
        }
        return facts;
    }
}
