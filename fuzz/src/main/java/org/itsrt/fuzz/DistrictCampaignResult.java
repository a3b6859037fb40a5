package org.itsrt.fuzz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.itsrt.fuzz.CampaignResult.Check;
import org.itsrt.fuzz.CampaignResult.KindRow;
import org.itsrt.fuzz.CampaignResult.ReasonRow;
import org.itsrt.fuzz.DistrictJobRun.Outcome;
import org.itsrt.fuzz.DistrictJobRun.RequestKey;
import org.itsrt.fuzz.JobRun.AdviceKey;
import org.itsrt.fuzz.KafkaReadBack.Position;
import org.itsrt.fuzz.KafkaReadBack.SeenDeadLetter;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.RouteRecord;

/**
 * What a district campaign's two runs add up to (docs/fuzz.md, "District campaign"), per stream:
 * every hostile reading and request dead-lettered once with its fault's reason category, every
 * valid reading predicted once and every valid request answered once, nothing lost, and the
 * answers held against the clean run's. Predictions are compared exactly (a reading's prediction
 * depends on its own window alone). An answer depends on the network state the router had, which
 * reaches it on a broadcast beside the requests: where both runs' answers carry the same
 * {@code network_version} they saw the same costs and must be the same route with the same travel
 * time; where the versions differ the outcome (routed or unreachable) must still be the same, the
 * graph and its reachability being the same, and the route is only counted, not compared.
 */
public final class DistrictCampaignResult {

    /**
     * One answer or prediction whose field differs from the clean run's.
     *
     * @param record which: {@code reading DETECTOR seq SEQ} or {@code request STREAM/SEQ}
     */
    public record Difference(String record, String field, String clean, String fuzz) {}

    /** One record as the accounting sees it: its kind, the category it must get or null, its answer's key. */
    private record Expected(String label, String category, Object answerKey) {}

    private final DistrictCampaignPlan plan;
    private final Outcome fuzz;
    private final Outcome clean;
    private final Map<String, List<KindRow>> kinds = new LinkedHashMap<>();
    private final Map<String, List<ReasonRow>> reasons = new LinkedHashMap<>();
    private final Map<String, long[]> tallies = new LinkedHashMap<>();
    private final List<Difference> differences = new ArrayList<>();
    private long predictionsCompared;
    private long answersSameNetwork;
    private long answersOtherNetwork;
    /** Fuzz run's network_version minus the clean run's -> answers, for the report. */
    private final Map<Long, Long> versionGaps = new TreeMap<>();

    private long cleanMissing;

    /** Indexes into {@link #tallies}: lost, wrong reason, dead letters more than once, answers more than once, unexpected. */
    private static final int LOST = 0, WRONG = 1, DEAD_TWICE = 2, ANSWERED_TWICE = 3, UNEXPECTED = 4;

    public DistrictCampaignResult(DistrictCampaignPlan plan, Outcome fuzz, Outcome clean) {
        this.plan = plan;
        this.fuzz = fuzz;
        this.clean = clean;
        List<Expected> readings = plan.readings().records().stream()
                .map(r -> new Expected(
                        r.label(),
                        r.advised() ? null : r.kind().reasonCategory(),
                        r.advised() ? new AdviceKey(r.detector(), r.seq()) : null))
                .toList();
        List<Expected> requests = plan.requests().records().stream()
                .map(r -> new Expected(
                        r.label(),
                        r.answered() ? null : r.fault().reasonCategory(),
                        r.answered() ? new RequestKey(r.stream(), r.seq()) : null))
                .toList();
        List<String> readingKinds = new ArrayList<>(List.of("valid reading"));
        for (FuzzKind kind : FuzzKind.values()) {
            readingKinds.add(kind.label());
        }
        List<String> requestFaults = new ArrayList<>(List.of("valid request"));
        for (RequestFault fault : RequestFault.values()) {
            requestFaults.add(fault.label());
        }
        account(
                "readings",
                readingKinds,
                readings,
                fuzz.readingsSent(),
                fuzz.readingDeadLetters(),
                count(fuzz.predictions().stream()
                        .map(p -> new AdviceKey(p.detector(), p.seq()))
                        .toList()));
        account(
                "route requests",
                requestFaults,
                requests,
                fuzz.requestsSent(),
                fuzz.requestDeadLetters(),
                count(fuzz.routes().stream()
                        .map(r -> new RequestKey(r.stream(), r.seq()))
                        .toList()));
        comparePredictions();
        compareAnswers();
    }

    private static Map<Object, Integer> count(List<?> keys) {
        Map<Object, Integer> counts = new HashMap<>();
        keys.forEach(k -> counts.merge(k, 1, Integer::sum));
        return counts;
    }

    /** @param order the kinds' labels in the order of the report's rows (the catalogue's) */
    private void account(
            String stream,
            List<String> order,
            List<Expected> records,
            Map<Position, Integer> sent,
            List<SeenDeadLetter> letters,
            Map<Object, Integer> answers) {
        Map<Integer, List<SeenDeadLetter>> lettersByRecord = new HashMap<>();
        for (SeenDeadLetter d : letters) {
            lettersByRecord
                    .computeIfAbsent(sent.get(d.source()), i -> new ArrayList<>())
                    .add(d);
        }
        long[] tally = new long[5];
        Map<String, long[]> rows = new LinkedHashMap<>();
        order.forEach(label -> rows.put(label, new long[5]));
        Map<String, String> expectedOf = new LinkedHashMap<>();
        Map<String, Long> expectedByCategory = new TreeMap<>();
        Set<Object> expectedKeys = new java.util.HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            Expected e = records.get(i);
            expectedOf.putIfAbsent(e.label(), e.category() == null ? "answer" : "dead letter: " + e.category());
            long[] row = rows.computeIfAbsent(e.label(), k -> new long[5]);
            row[0]++;
            if (e.category() == null) {
                expectedKeys.add(e.answerKey());
                int n = answers.getOrDefault(e.answerKey(), 0);
                if (n == 0) {
                    row[4]++;
                    tally[LOST]++;
                } else {
                    row[1]++;
                    row[3] += n - 1;
                    tally[ANSWERED_TWICE] += n - 1;
                }
                continue;
            }
            expectedByCategory.merge(e.category(), 1L, Long::sum);
            List<SeenDeadLetter> own = lettersByRecord.getOrDefault(i, List.of());
            if (own.isEmpty()) {
                row[4]++;
                tally[LOST]++;
                continue;
            }
            if (own.stream().allMatch(d -> e.category().equals(DeadLetterHeaders.category(d.reason())))) {
                row[1]++;
            } else {
                row[2]++;
                tally[WRONG]++;
            }
            row[3] += own.size() - 1;
            tally[DEAD_TWICE] += own.size() - 1;
        }
        tally[UNEXPECTED] =
                answers.keySet().stream().filter(k -> !expectedKeys.contains(k)).count();
        List<KindRow> kindRows = new ArrayList<>();
        rows.forEach((label, row) -> {
            if (row[0] > 0) {
                kindRows.add(new KindRow(label, expectedOf.get(label), row[0], row[1], row[2], row[3], row[4]));
            }
        });
        kinds.put(stream, kindRows);
        Map<String, Long> received = new TreeMap<>();
        Map<String, String> examples = new HashMap<>();
        for (SeenDeadLetter d : letters) {
            String category = DeadLetterHeaders.category(d.reason());
            received.merge(category, 1L, Long::sum);
            examples.putIfAbsent(category, d.reason());
        }
        Set<String> categories = new TreeSet<>(expectedByCategory.keySet());
        categories.addAll(received.keySet());
        List<ReasonRow> reasonRows = new ArrayList<>();
        for (String category : categories) {
            reasonRows.add(new ReasonRow(
                    category,
                    expectedByCategory.getOrDefault(category, 0L),
                    received.getOrDefault(category, 0L),
                    examples.getOrDefault(category, "")));
        }
        reasons.put(stream, reasonRows);
        tallies.put(stream, tally);
    }

    private void comparePredictions() {
        Map<AdviceKey, PredictionRecord> cleanByKey = new HashMap<>();
        clean.predictions().forEach(p -> cleanByKey.putIfAbsent(new AdviceKey(p.detector(), p.seq()), p));
        Map<AdviceKey, PredictionRecord> fuzzByKey = new HashMap<>();
        fuzz.predictions().forEach(p -> fuzzByKey.putIfAbsent(new AdviceKey(p.detector(), p.seq()), p));
        for (FuzzRecord r : plan.readings().advised()) {
            AdviceKey key = new AdviceKey(r.detector(), r.seq());
            PredictionRecord a = cleanByKey.get(key);
            PredictionRecord b = fuzzByKey.get(key);
            if (a == null) {
                cleanMissing++;
            } else if (b != null) {
                predictionsCompared++;
                difference(
                        "reading " + r.detector() + " seq " + r.seq(),
                        "predicted_flow",
                        a.predictedFlow(),
                        b.predictedFlow());
            }
        }
    }

    private void compareAnswers() {
        Map<RequestKey, RouteRecord> cleanByKey = new HashMap<>();
        clean.routes().forEach(a -> cleanByKey.putIfAbsent(new RequestKey(a.stream(), a.seq()), a));
        Map<RequestKey, RouteRecord> fuzzByKey = new HashMap<>();
        fuzz.routes().forEach(a -> fuzzByKey.putIfAbsent(new RequestKey(a.stream(), a.seq()), a));
        for (FuzzRequest r : plan.requests().answered()) {
            RequestKey key = new RequestKey(r.stream(), r.seq());
            RouteRecord a = cleanByKey.get(key);
            RouteRecord b = fuzzByKey.get(key);
            if (a == null) {
                cleanMissing++;
                continue;
            }
            if (b == null) {
                continue;
            }
            String what = "request " + r.stream() + "/" + r.seq();
            difference(what, "outcome", a.outcome(), b.outcome());
            if (a.networkVersion() == b.networkVersion()) {
                answersSameNetwork++;
                difference(what, "route", a.route(), b.route());
                difference(what, "travel_time_s", a.travelTimeS(), b.travelTimeS());
            } else {
                answersOtherNetwork++;
            }
            versionGaps.merge(b.networkVersion() - a.networkVersion(), 1L, Long::sum);
        }
    }

    private void difference(String what, String field, Object clean, Object fuzz) {
        if (!Objects.equals(clean, fuzz)) {
            differences.add(new Difference(what, field, String.valueOf(clean), String.valueOf(fuzz)));
        }
    }

    /** One line per expectation: what it is, whether it held, the numbers behind it. */
    public List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        checks.add(new Check(
                "the job never restarted",
                fuzz.job().steady(),
                "state " + fuzz.job().state() + ", restarts " + fuzz.job().restarts()));
        for (Map.Entry<String, long[]> e : tallies.entrySet()) {
            long[] t = e.getValue();
            String answer = e.getKey().equals("readings") ? "predicted" : "answered";
            checks.add(new Check(
                    e.getKey() + ": every hostile record dead-lettered once, with its expected reason category",
                    t[WRONG] == 0 && t[DEAD_TWICE] == 0 && lostDeadLetters(e.getKey()) == 0,
                    lostDeadLetters(e.getKey()) + " missing, " + t[WRONG] + " with another reason, " + t[DEAD_TWICE]
                            + " more than once"));
            checks.add(new Check(
                    e.getKey() + ": every valid record " + answer + " exactly once, nothing else",
                    t[ANSWERED_TWICE] == 0 && t[UNEXPECTED] == 0 && t[LOST] - lostDeadLetters(e.getKey()) == 0,
                    (t[LOST] - lostDeadLetters(e.getKey())) + " missing, " + t[ANSWERED_TWICE] + " more than once, "
                            + t[UNEXPECTED] + " unexpected"));
        }
        checks.add(new Check(
                "nothing lost: each record sent accounted for",
                lost() == 0 && fuzz.notSent().isEmpty() && fuzz.unreadable() == 0,
                lost() + " lost, " + fuzz.notSent().size() + " not sent, " + fuzz.unreadable()
                        + " unreadable answers"));
        checks.add(new Check(
                "answers as the clean run's",
                differences.isEmpty() && cleanMissing == 0 && predictionsCompared > 0,
                String.format(
                        Locale.ROOT,
                        "%,d predictions compared exactly; %,d answers on the same network_version compared exactly"
                                + " (outcome, route, travel_time_s), %,d on another compared by outcome (fuzz run's"
                                + " version minus the clean run's -> answers: %s); %,d differences, %,d missing in the"
                                + " clean run (state %s, restarts %d)",
                        predictionsCompared,
                        answersSameNetwork,
                        answersOtherNetwork,
                        versionGaps,
                        differences.size(),
                        cleanMissing,
                        clean.job().state(),
                        clean.job().restarts())));
        if (fuzz.lockstepNote() != null || clean.lockstepNote() != null) {
            checks.add(new Check(
                    "lockstep kept", false, Objects.requireNonNullElse(fuzz.lockstepNote(), clean.lockstepNote())));
        }
        return checks;
    }

    private long lostDeadLetters(String stream) {
        return kinds.get(stream).stream()
                .filter(k -> k.expected().startsWith("dead letter"))
                .mapToLong(KindRow::lost)
                .sum();
    }

    public boolean passed() {
        return checks().stream().allMatch(Check::held);
    }

    /** Expected records (answers or dead letters) of both streams that never came. */
    public long lost() {
        return tallies.values().stream().mapToLong(t -> t[LOST]).sum();
    }

    /** Per stream ("readings", "route requests"): one row per kind. */
    public Map<String, List<KindRow>> kinds() {
        return kinds;
    }

    /** Per stream: dead letters by reason category. */
    public Map<String, List<ReasonRow>> reasons() {
        return reasons;
    }

    public List<Difference> differences() {
        return List.copyOf(differences);
    }

    public Outcome fuzz() {
        return fuzz;
    }

    public Outcome clean() {
        return clean;
    }
}
