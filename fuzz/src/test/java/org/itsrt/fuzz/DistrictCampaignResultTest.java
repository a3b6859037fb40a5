package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.fuzz.CampaignResult.Check;
import org.itsrt.fuzz.DistrictJobRun.Outcome;
import org.itsrt.fuzz.KafkaReadBack.Position;
import org.itsrt.fuzz.KafkaReadBack.SeenDeadLetter;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.RouteRecord;
import org.junit.jupiter.api.Test;

/**
 * The district campaign's accounting and comparison on outcomes built by hand (no cluster): what a
 * job that behaves gives, then one fault at a time, each of which must fail its own expectation.
 */
class DistrictCampaignResultTest {

    private static final long[] STATIONS = {716847, 717731, 718155, 764598, 774445, 774614};
    private static final DistrictCampaignPlan PLAN =
            DistrictCampaignPlan.generate(RequestFault.values().length, STATIONS, 7, 0);

    /** A run as a job that behaves would give it, each answer on network version {@code version}. */
    private static Outcome run(String name, boolean fuzz, long version) {
        Map<Position, Integer> readingsSent = new HashMap<>();
        Map<Position, Integer> requestsSent = new HashMap<>();
        List<PredictionRecord> predictions = new ArrayList<>();
        List<RouteRecord> routes = new ArrayList<>();
        List<SeenDeadLetter> readingLetters = new ArrayList<>();
        List<SeenDeadLetter> requestLetters = new ArrayList<>();
        List<FuzzRecord> readings = PLAN.readings().records();
        for (int i = 0; i < readings.size(); i++) {
            FuzzRecord r = readings.get(i);
            if (r.advised()) {
                predictions.add(new PredictionRecord(
                        r.detector(), Instant.EPOCH, r.seq(), 0, 0, false, 100 + r.seq(), "lstm", 0, 0, false));
            } else if (fuzz) {
                readingLetters.add(
                        new SeenDeadLetter(new Position(0, i), r.kind().reasonCategory() + ": x", 1));
            }
            if (fuzz || r.advised()) {
                readingsSent.put(new Position(0, i), i);
            }
        }
        List<FuzzRequest> requests = PLAN.requests().records();
        for (int i = 0; i < requests.size(); i++) {
            FuzzRequest r = requests.get(i);
            if (r.answered()) {
                routes.add(route(r, version, List.of(716847L, 774614L)));
            } else if (fuzz) {
                requestLetters.add(
                        new SeenDeadLetter(new Position(1, i), r.fault().reasonCategory() + ": x", 1));
            }
            if (fuzz || r.answered()) {
                requestsSent.put(new Position(1, i), i);
            }
        }
        return new Outcome(
                name,
                readingsSent,
                requestsSent,
                List.of(),
                predictions,
                routes,
                0,
                readingLetters,
                requestLetters,
                new FlinkJobState("RUNNING", 0),
                null,
                Duration.ofSeconds(1));
    }

    private static RouteRecord route(FuzzRequest r, long version, List<Long> stations) {
        return new RouteRecord(
                1,
                r.stream(),
                r.seq(),
                0,
                0,
                false,
                stations.get(0),
                stations.get(stations.size() - 1),
                Instant.EPOCH,
                RouteOutcome.ROUTED,
                stations,
                60.0,
                version,
                0,
                0);
    }

    private static Outcome with(Outcome o, List<RouteRecord> routes, List<SeenDeadLetter> requestLetters) {
        return new Outcome(
                o.name(),
                o.readingsSent(),
                o.requestsSent(),
                o.notSent(),
                o.predictions(),
                routes,
                o.unreadable(),
                o.readingDeadLetters(),
                requestLetters,
                o.job(),
                o.lockstepNote(),
                o.took());
    }

    private static Map<String, Boolean> held(DistrictCampaignResult result) {
        Map<String, Boolean> held = new HashMap<>();
        for (Check c : result.checks()) {
            held.put(c.expectation(), c.held());
        }
        return held;
    }

    @Test
    void aJobThatBehavesPassesEveryExpectation() {
        DistrictCampaignResult result =
                new DistrictCampaignResult(PLAN, run("fuzz run", true, 5), run("clean run", false, 5));
        assertThat(result.checks())
                .allSatisfy(c -> assertThat(c.held()).as(c.toString()).isTrue());
        assertThat(result.kinds().get("route requests"))
                .extracting(CampaignResult.KindRow::kind)
                .contains(RequestFault.UNKNOWN_ORIGIN.label(), RequestFault.DEPARTURE_AT_TOLERANCE.label());
        assertThat(result.lost()).isZero();
    }

    @Test
    void aDeadLetterWithAnotherReasonAMissingOneAndATwiceAnsweredRequestEachFail() {
        Outcome fuzz = run("fuzz run", true, 5);
        List<SeenDeadLetter> letters = new ArrayList<>(fuzz.requestDeadLetters());
        SeenDeadLetter first = letters.get(0);
        letters.set(0, new SeenDeadLetter(first.source(), "something else: x", 1));
        letters.remove(1);
        List<RouteRecord> routes = new ArrayList<>(fuzz.routes());
        routes.add(routes.get(0));
        DistrictCampaignResult result =
                new DistrictCampaignResult(PLAN, with(fuzz, routes, letters), run("clean run", false, 5));
        Map<String, Boolean> held = held(result);
        assertThat(held)
                .containsEntry(
                        "route requests: every hostile record dead-lettered once, with its expected reason category",
                        false)
                .containsEntry("route requests: every valid record answered exactly once, nothing else", false)
                .containsEntry("nothing lost: each record sent accounted for", false)
                .containsEntry(
                        "readings: every hostile record dead-lettered once, with its expected reason category", true);
        assertThat(result.lost()).isEqualTo(1);
    }

    @Test
    void routesAreComparedOnlyOnTheSameNetworkStateAndOutcomesAlways() {
        Outcome clean = run("clean run", false, 5);
        // Another route on another network version: not a difference.
        List<RouteRecord> otherState = clean.routes().stream()
                .map(a -> new RouteRecord(
                        a.traveller(),
                        a.stream(),
                        a.seq(),
                        0,
                        0,
                        false,
                        716847,
                        774614,
                        a.departure(),
                        RouteOutcome.ROUTED,
                        List.of(716847L, 717731L, 774614L),
                        75.0,
                        6,
                        0,
                        0))
                .toList();
        Outcome fuzz = run("fuzz run", true, 5);
        DistrictCampaignResult onOther =
                new DistrictCampaignResult(PLAN, fuzz, with(clean, otherState, clean.requestDeadLetters()));
        assertThat(onOther.differences()).isEmpty();
        // The same route on the same version with another travel time: a difference.
        List<RouteRecord> sameState = clean.routes().stream()
                .map(a -> new RouteRecord(
                        a.traveller(),
                        a.stream(),
                        a.seq(),
                        0,
                        0,
                        false,
                        716847,
                        774614,
                        a.departure(),
                        RouteOutcome.ROUTED,
                        a.route(),
                        61.0,
                        5,
                        0,
                        0))
                .toList();
        DistrictCampaignResult onSame =
                new DistrictCampaignResult(PLAN, fuzz, with(clean, sameState, clean.requestDeadLetters()));
        assertThat(onSame.differences()).isNotEmpty().allSatisfy(d -> assertThat(d.field())
                .isEqualTo("travel_time_s"));
        // Unreachable in one run and routed in the other, whatever the version: a difference.
        List<RouteRecord> unreachable = clean.routes().stream()
                .map(a -> new RouteRecord(
                        a.traveller(),
                        a.stream(),
                        a.seq(),
                        0,
                        0,
                        false,
                        716847,
                        774614,
                        a.departure(),
                        RouteOutcome.UNREACHABLE,
                        List.of(),
                        Double.NaN,
                        9,
                        0,
                        0))
                .toList();
        DistrictCampaignResult reach =
                new DistrictCampaignResult(PLAN, fuzz, with(clean, unreachable, clean.requestDeadLetters()));
        assertThat(reach.differences()).isNotEmpty().allSatisfy(d -> assertThat(d.field())
                .isEqualTo("outcome"));
        assertThat(held(reach)).containsEntry("answers as the clean run's", false);
    }
}
