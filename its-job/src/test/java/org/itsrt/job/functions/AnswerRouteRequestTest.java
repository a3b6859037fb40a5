package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
import org.itsrt.routing.graph.StudyNetwork;
import org.junit.jupiter.api.Test;

class AnswerRouteRequestTest {

    /** Any two stations of the study network may be asked for: routing needs neither Kafka nor a model. */
    private static final RoutingSettings ROUTING = RoutingSettings.forRequests(null);

    private static final long EL_SEGUNDO = 764598;
    private static final long WILMINGTON = 717731;
    private static final long LONG_BEACH = 774445;
    private static final Instant T0 = Instant.parse("2018-03-05T17:00:00Z");

    private static final KeySelector<ValidRouteRequest, Long> BY_TRAVELLER = request -> request.traveller;

    private static KeyedBroadcastOperatorTestHarness<Long, ValidRouteRequest, ConditionUpdate, RouteAnswer> harness()
            throws Exception {
        return harness(0);
    }

    private static KeyedBroadcastOperatorTestHarness<Long, ValidRouteRequest, ConditionUpdate, RouteAnswer> harness(
            long deadlineMs) throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                new AnswerRouteRequest(ROUTING, deadlineMs),
                BY_TRAVELLER,
                Types.LONG,
                RouteWithNetworkState.NETWORK_STATE,
                AnswerRouteRequest.NETWORK_VERSION);
    }

    private static ValidRouteRequest request(long traveller, long origin, long destination, long seq) {
        ValidRouteRequest r = new ValidRouteRequest();
        r.traveller = traveller;
        r.origin = origin;
        r.destination = destination;
        r.departure = T0;
        r.requestedAt = T0;
        r.seq = seq;
        return r;
    }

    private static RouteAnswer answer(
            KeyedBroadcastOperatorTestHarness<Long, ValidRouteRequest, ConditionUpdate, RouteAnswer> h,
            ValidRouteRequest request)
            throws Exception {
        int before = h.extractOutputValues().size();
        h.processElement(request, 0);
        List<RouteAnswer> answers = h.extractOutputValues();
        assertThat(answers).hasSize(before + 1);
        return answers.get(before);
    }

    private static void assertRoutedAs(RouteAnswer answer, Router expected) {
        Route route = expected.route(answer.request.origin, answer.request.destination);
        assertThat(answer.reachable).isEqualTo(route.isReachable());
        assertThat(answer.route)
                .containsExactly(
                        route.vdsIds().stream().mapToLong(Long::longValue).toArray());
        if (route.isReachable()) {
            assertThat(answer.travelTimeS).isCloseTo(route.costSeconds(), within(1e-9));
        } else {
            assertThat(answer.travelTimeS).isNaN();
        }
    }

    @Test
    void theVersionCountsTheUpdatesTakenAndEachAnswerIsTheRouteOfItsState() throws Exception {
        Router expected = Router.withDefaults(StudyNetwork.build());
        var h = harness();
        try {
            RouteAnswer empty = answer(h, request(1, EL_SEGUNDO, LONG_BEACH, 0));
            assertThat(empty.networkVersion).isZero();
            assertRoutedAs(empty, expected);
            assertThat(empty.routeNs).isPositive();

            // The 405 at El Segundo jams, then Wilmington: two updates taken.
            ConditionUpdate jam = new ConditionUpdate(EL_SEGUNDO, T0, 0, 8, 560);
            h.processBroadcastElement(jam, 0);
            h.processBroadcastElement(new ConditionUpdate(WILMINGTON, T0, 0, 15, 400), 0);
            expected.update(EL_SEGUNDO, jam.conditions());
            expected.update(WILMINGTON, new ConditionUpdate(WILMINGTON, T0, 0, 15, 400).conditions());
            RouteAnswer jammed = answer(h, request(2, EL_SEGUNDO, LONG_BEACH, 1));
            assertThat(jammed.networkVersion).isEqualTo(2);
            assertRoutedAs(jammed, expected);
            assertThat(jammed.travelTimeS).isGreaterThan(empty.travelTimeS);

            // An older reading of El Segundo is not taken: neither the costs nor the version move.
            h.processBroadcastElement(new ConditionUpdate(EL_SEGUNDO, T0.minusSeconds(300), 9, 65, 100), 0);
            RouteAnswer again = answer(h, request(1, EL_SEGUNDO, LONG_BEACH, 2));
            assertThat(again.networkVersion).isEqualTo(2);
            assertRoutedAs(again, expected);
            assertThat(h.getSideOutput(RouteWithNetworkState.STATE_CHANGES)).hasSize(2);

            // Against the direction of travel there is no route.
            RouteAnswer back = answer(h, request(3, LONG_BEACH, EL_SEGUNDO, 3));
            assertThat(back.reachable).isFalse();
            assertRoutedAs(back, expected);
            assertThat(back.toRecord().isRouted()).isFalse();
        } finally {
            h.close();
        }
    }

    /**
     * A request already past its deadline is answered at once as expired, with no route and no
     * search, and the record says so; a request with time left is routed. The late request is a
     * minute past a 50 ms deadline, so no timing of this machine decides.
     */
    @Test
    void aRequestPastItsDeadlineIsAnsweredAsExpiredNotRouted() throws Exception {
        Router expected = Router.withDefaults(StudyNetwork.build());
        var h = harness(50);
        try {
            ValidRouteRequest late = request(1, EL_SEGUNDO, LONG_BEACH, 0);
            late.createdMs = System.currentTimeMillis() - 60_000;
            RouteAnswer expired = answer(h, late);
            assertThat(expired.expired).isTrue();
            assertThat(expired.reachable).isFalse();
            assertThat(expired.route).isEmpty();
            assertThat(expired.routeNs).isZero();
            RouteRecord record = RouteRecordJson.readRoute(RouteRecordJson.write(expired.toRecord()));
            assertThat(record.outcome()).isEqualTo(RouteOutcome.EXPIRED);
            assertThat(record.route()).isEmpty();

            ValidRouteRequest fresh = request(2, EL_SEGUNDO, LONG_BEACH, 1);
            fresh.createdMs = System.currentTimeMillis() + 60_000;
            RouteAnswer routed = answer(h, fresh);
            assertThat(routed.expired).isFalse();
            assertRoutedAs(routed, expected);

            ValidRouteRequest untimed = request(3, EL_SEGUNDO, LONG_BEACH, 2);
            assertThat(answer(h, untimed).expired)
                    .as("no timestamp: no deadline")
                    .isFalse();
        } finally {
            h.close();
        }
    }

    @Test
    void aRestoredSubtaskGoesOnFromTheRestoredStateAndVersion() throws Exception {
        Router expected = Router.withDefaults(StudyNetwork.build());
        OperatorSubtaskState snapshot;
        var h = harness();
        try {
            for (int k = 0; k < 3; k++) {
                ConditionUpdate u = new ConditionUpdate(EL_SEGUNDO, T0.plusSeconds(300L * k), k, 10 + 20 * k, 500);
                h.processBroadcastElement(u, 0);
                expected.update(u.detector, u.conditions());
            }
            ConditionUpdate wilmington = new ConditionUpdate(WILMINGTON, T0, 0, 12, 450);
            h.processBroadcastElement(wilmington, 0);
            expected.update(WILMINGTON, wilmington.conditions());
            snapshot = h.snapshot(1, 1);
        } finally {
            h.close();
        }
        var restored = new KeyedBroadcastOperatorTestHarness<Long, ValidRouteRequest, ConditionUpdate, RouteAnswer>(
                new CoBroadcastWithKeyedOperator<>(
                        new AnswerRouteRequest(ROUTING, 0),
                        List.of(RouteWithNetworkState.NETWORK_STATE, AnswerRouteRequest.NETWORK_VERSION)),
                BY_TRAVELLER,
                Types.LONG,
                1,
                1,
                0);
        try {
            restored.setup();
            restored.initializeState(snapshot);
            restored.open();
            RouteAnswer answer = answer(restored, request(4, EL_SEGUNDO, LONG_BEACH, 0));
            assertThat(answer.networkVersion).isEqualTo(4);
            assertRoutedAs(answer, expected);

            ConditionUpdate later = new ConditionUpdate(WILMINGTON, T0.plusSeconds(300), 1, 64, 200);
            restored.processBroadcastElement(later, 0);
            expected.update(WILMINGTON, later.conditions());
            RouteAnswer next = answer(restored, request(4, EL_SEGUNDO, LONG_BEACH, 1));
            assertThat(next.networkVersion).isEqualTo(5);
            assertRoutedAs(next, expected);
        } finally {
            restored.close();
        }
    }
}
