package org.itsrt.fuzz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.itsrt.fuzz.JobRun.AdviceKey;
import org.itsrt.fuzz.JobRun.Outcome;
import org.itsrt.fuzz.KafkaReadBack.Position;
import org.itsrt.fuzz.KafkaReadBack.SeenDeadLetter;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.DeadLetterHeaders;

/**
 * What a campaign's two runs add up to, held against its expectations (docs/fuzz.md): the job
 * never restarted, every hostile record was dead-lettered once with the reason its kind must get,
 * every reading (valid or of an accepted kind) was advised once, nothing was lost, and the advice
 * equals the clean run's, reading by reading.
 */
public final class CampaignResult {

    /** One row per kind (valid readings first). */
    public record KindRow(
            String kind, String expected, long sent, long asExpected, long wrongReason, long duplicates, long lost) {}

    /** Dead letters of one reason category: how many the kinds sent call for, how many came. */
    public record ReasonRow(String category, long expected, long received, String example) {}

    /** One reading whose advice differs from the clean run's. */
    public record Difference(long detector, long seq, String field, String clean, String fuzz) {}

    private final CampaignPlan plan;
    private final Outcome fuzz;
    private final Outcome clean;
    private final List<KindRow> kinds = new ArrayList<>();
    private final List<ReasonRow> reasons = new ArrayList<>();
    private final List<Difference> differences = new ArrayList<>();
    private long compared;
    private long lostAdvice;
    private long lostDeadLetters;
    private long unexpectedAdvice;
    private long cleanMissing;

    public CampaignResult(CampaignPlan plan, Outcome fuzz, Outcome clean) {
        this.plan = plan;
        this.fuzz = fuzz;
        this.clean = clean;
        evaluate();
    }

    private void evaluate() {
        List<FuzzRecord> records = plan.records();
        Map<Integer, List<SeenDeadLetter>> lettersByRecord = new HashMap<>();
        for (SeenDeadLetter d : fuzz.deadLetters()) {
            lettersByRecord
                    .computeIfAbsent(fuzz.sent().get(d.source()), i -> new ArrayList<>())
                    .add(d);
        }
        Map<Integer, Position> positionOf = new HashMap<>();
        fuzz.sent().forEach((position, index) -> positionOf.put(index, position));
        Map<AdviceKey, List<AdviceRecord>> fuzzAdvice = byKey(fuzz.advice());
        Map<AdviceKey, List<AdviceRecord>> cleanAdvice = byKey(clean.advice());

        Map<String, long[]> rows = new LinkedHashMap<>();
        Map<String, String> expectedOf = new LinkedHashMap<>();
        expectedOf.put("valid reading", "advice");
        for (FuzzKind kind : FuzzKind.values()) {
            expectedOf.put(kind.label(), kind.accepted() ? "advice" : "dead letter: " + kind.reasonCategory());
        }
        expectedOf.keySet().forEach(k -> rows.put(k, new long[5]));
        Map<String, Long> expectedByCategory = new TreeMap<>();
        java.util.Set<AdviceKey> expectedKeys = new java.util.HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            FuzzRecord record = records.get(i);
            long[] row = rows.get(record.label());
            row[0]++;
            if (record.advised()) {
                AdviceKey key = new AdviceKey(record.detector(), record.seq());
                expectedKeys.add(key);
                int n = fuzzAdvice.getOrDefault(key, List.of()).size();
                if (n == 0) {
                    row[4]++;
                    lostAdvice++;
                } else {
                    row[1]++;
                    row[3] += n - 1;
                }
                continue;
            }
            expectedByCategory.merge(record.kind().reasonCategory(), 1L, Long::sum);
            List<SeenDeadLetter> letters = lettersByRecord.getOrDefault(i, List.of());
            if (letters.isEmpty()) {
                row[4]++;
                lostDeadLetters++;
                continue;
            }
            if (letters.stream()
                    .allMatch(d -> record.kind().reasonCategory().equals(DeadLetterHeaders.category(d.reason())))) {
                row[1]++;
            } else {
                row[2]++;
            }
            row[3] += letters.size() - 1;
        }
        rows.forEach((kind, row) -> {
            if (row[0] > 0) {
                kinds.add(new KindRow(kind, expectedOf.get(kind), row[0], row[1], row[2], row[3], row[4]));
            }
        });
        fuzzAdvice.keySet().stream().filter(k -> !expectedKeys.contains(k)).forEach(k -> unexpectedAdvice++);

        Map<String, long[]> received = new TreeMap<>();
        Map<String, String> examples = new HashMap<>();
        for (SeenDeadLetter d : fuzz.deadLetters()) {
            String category = DeadLetterHeaders.category(d.reason());
            received.computeIfAbsent(category, c -> new long[1])[0]++;
            examples.putIfAbsent(category, d.reason());
        }
        java.util.Set<String> categories = new java.util.TreeSet<>(expectedByCategory.keySet());
        categories.addAll(received.keySet());
        for (String category : categories) {
            reasons.add(new ReasonRow(
                    category,
                    expectedByCategory.getOrDefault(category, 0L),
                    received.containsKey(category) ? received.get(category)[0] : 0,
                    examples.getOrDefault(category, "")));
        }

        for (FuzzRecord record : plan.advised()) {
            AdviceKey key = new AdviceKey(record.detector(), record.seq());
            List<AdviceRecord> c = cleanAdvice.get(key);
            List<AdviceRecord> f = fuzzAdvice.get(key);
            if (c == null) {
                cleanMissing++;
                continue;
            }
            if (f == null) {
                continue;
            }
            compared++;
            AdviceRecord a = c.get(0);
            AdviceRecord b = f.get(0);
            compare(key, "predicted_flow", a.predictedFlow(), b.predictedFlow());
            compare(key, "route", a.route(), b.route());
            compare(key, "route_cost_s", a.routeCostS(), b.routeCostS());
        }
    }

    private void compare(AdviceKey key, String field, Object clean, Object fuzz) {
        if (!Objects.equals(clean, fuzz)) {
            differences.add(
                    new Difference(key.detector(), key.seq(), field, String.valueOf(clean), String.valueOf(fuzz)));
        }
    }

    private static Map<AdviceKey, List<AdviceRecord>> byKey(List<AdviceRecord> advice) {
        Map<AdviceKey, List<AdviceRecord>> map = new HashMap<>();
        for (AdviceRecord a : advice) {
            map.computeIfAbsent(new AdviceKey(a.detector(), a.seq()), k -> new ArrayList<>())
                    .add(a);
        }
        return map;
    }

    /** One line per expectation: what it is, whether it held, the numbers behind it. */
    public record Check(String expectation, boolean held, String detail) {}

    public List<Check> checks() {
        long duplicates = kinds.stream().mapToLong(KindRow::duplicates).sum();
        long wrongReason = kinds.stream().mapToLong(KindRow::wrongReason).sum();
        List<Check> checks = new ArrayList<>();
        checks.add(new Check(
                "the job never restarted",
                fuzz.job().steady(),
                "state " + fuzz.job().state() + ", restarts " + restarts(fuzz.job())));
        checks.add(new Check(
                "every bad record dead-lettered once, with its kind's reason",
                lostDeadLetters == 0 && wrongReason == 0 && duplicatesOfDeadLetters() == 0,
                lostDeadLetters + " missing, " + wrongReason + " with another reason, " + duplicatesOfDeadLetters()
                        + " more than once"));
        checks.add(new Check(
                "every reading advised once, nothing else advised",
                lostAdvice == 0
                        && duplicates - duplicatesOfDeadLetters() == 0
                        && unexpectedAdvice == 0
                        && fuzz.unreadable() == 0,
                lostAdvice + " missing, " + (duplicates - duplicatesOfDeadLetters()) + " more than once, "
                        + unexpectedAdvice + " unexpected, " + fuzz.unreadable() + " unreadable"));
        checks.add(new Check(
                "nothing lost",
                lost() == 0 && fuzz.sendErrors().isEmpty(),
                lost() + " lost, " + fuzz.sendErrors().size() + " not sent"));
        checks.add(new Check(
                "advice equal to the clean run's",
                adviceEqual(),
                String.format(
                        java.util.Locale.ROOT,
                        "%,d readings compared, %,d differences, %,d missing in the clean run (clean run: state %s,"
                                + " restarts %s)",
                        compared,
                        differences.size(),
                        cleanMissing,
                        clean.job().state(),
                        restarts(clean.job()))));
        if (fuzz.lockstepNote() != null || clean.lockstepNote() != null) {
            checks.add(new Check(
                    "lockstep kept (each reading's advice before the next reading)",
                    false,
                    Objects.requireNonNullElse(fuzz.lockstepNote(), clean.lockstepNote())));
        }
        return checks;
    }

    private long duplicatesOfDeadLetters() {
        return kinds.stream()
                .filter(k -> k.expected().startsWith("dead letter"))
                .mapToLong(KindRow::duplicates)
                .sum();
    }

    private static String restarts(FlinkJobState job) {
        return job.restarts() < 0 ? "unknown" : Long.toString(job.restarts());
    }

    public boolean passed() {
        return checks().stream().allMatch(Check::held);
    }

    public boolean adviceEqual() {
        return differences.isEmpty() && cleanMissing == 0 && compared > 0;
    }

    /** Expected records (advice or dead letters) that never came. */
    public long lost() {
        return lostAdvice + lostDeadLetters;
    }

    public List<KindRow> kinds() {
        return List.copyOf(kinds);
    }

    public List<ReasonRow> reasons() {
        return List.copyOf(reasons);
    }

    public List<Difference> differences() {
        return List.copyOf(differences);
    }

    public long compared() {
        return compared;
    }

    public Outcome fuzz() {
        return fuzz;
    }

    public Outcome clean() {
        return clean;
    }

    public CampaignPlan plan() {
        return plan;
    }
}
