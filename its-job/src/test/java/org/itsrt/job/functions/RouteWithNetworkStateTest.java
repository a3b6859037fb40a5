package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
import org.itsrt.routing.graph.StudyNetwork;
import org.junit.jupiter.api.Test;

class RouteWithNetworkStateTest {

    /** The study's query over the study network: routing needs neither Kafka nor a model. */
    private static final RoutingSettings ROUTING = RoutingSettings.of(764598, 774445, null);

    private static final long EL_SEGUNDO = 764598;
    private static final long WILMINGTON = 717731;
    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};
    private static final Instant T0 = Instant.parse("2018-03-05T17:00:00Z");

    private static BroadcastOperatorTestHarness<PredictedFlow, ConditionUpdate, RoutedAdvice> harness()
            throws Exception {
        return ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new RouteWithNetworkState(ROUTING), RouteWithNetworkState.NETWORK_STATE);
    }

    private static Map<Long, ConditionUpdate> state(
            BroadcastOperatorTestHarness<PredictedFlow, ConditionUpdate, RoutedAdvice> h) throws Exception {
        Map<Long, ConditionUpdate> copy = new HashMap<>();
        h.getBroadcastState(RouteWithNetworkState.NETWORK_STATE)
                .immutableEntries()
                .forEach(e -> copy.put(e.getKey(), e.getValue()));
        return copy;
    }

    private static PredictedFlow prediction(long detector, long seq, double speed, double flow) {
        PredictedFlow p = new PredictedFlow();
        p.detector = detector;
        p.ts = T0.plusSeconds(300 * seq);
        p.seq = seq;
        p.speedMph = speed;
        p.predictedFlow = flow;
        return p;
    }

    /** Three readings per detector; later ones by time, and two with the same time told apart by seq. */
    private static List<ConditionUpdate> updates() {
        List<ConditionUpdate> updates = new ArrayList<>();
        Random random = new Random(7);
        for (long detector : STUDY) {
            for (int k = 0; k < 3; k++) {
                updates.add(new ConditionUpdate(
                        detector, T0.plusSeconds(300L * k), k, 20 + random.nextInt(45), 100 + random.nextInt(500)));
            }
            updates.add(new ConditionUpdate(detector, T0.plusSeconds(600), 3, 33, 333));
        }
        return updates;
    }

    @Test
    void theStateKeepsTheNewestReadingWhateverTheArrivalOrder() throws Exception {
        List<ConditionUpdate> inOrder = updates();
        Map<Long, ConditionUpdate> reference = null;
        Random random = new Random(11);
        for (int trial = 0; trial < 20; trial++) {
            List<ConditionUpdate> shuffled = new ArrayList<>(inOrder);
            Collections.shuffle(shuffled, random);
            var h = harness();
            try {
                for (ConditionUpdate u : shuffled) {
                    h.processBroadcastElement(u, 0);
                }
                Map<Long, ConditionUpdate> state = state(h);
                if (reference == null) {
                    reference = state;
                }
                assertThat(state).isEqualTo(reference);
            } finally {
                h.close();
            }
        }
        // Same time as reading 2, higher sequence number: reading 3 wins everywhere.
        assertThat(reference).hasSize(STUDY.length);
        reference.values().forEach(u -> assertThat(u.seq).isEqualTo(3));
        assertThat(reference.get(EL_SEGUNDO).conditions().observedSpeedMph()).isEqualTo(33);
    }

    @Test
    void anOlderReadingDoesNotReplaceANewerOneEvenWithAHigherSeq() throws Exception {
        var h = harness();
        try {
            h.processBroadcastElement(new ConditionUpdate(EL_SEGUNDO, T0.plusSeconds(300), 1, 60, 300), 0);
            h.processBroadcastElement(new ConditionUpdate(EL_SEGUNDO, T0, 9, 10, 900), 0);
            assertThat(state(h).get(EL_SEGUNDO).seq).isEqualTo(1);
            assertThat(h.getSideOutput(RouteWithNetworkState.STATE_CHANGES)).hasSize(1);
        } finally {
            h.close();
        }
    }

    @Test
    void aRecordIsRoutedWithItsOwnConditionsBeforeTheirBroadcastArrives() throws Exception {
        var h = harness();
        try {
            // The 405 at El Segundo jams; nothing has been broadcast yet.
            h.processElement(prediction(EL_SEGUNDO, 0, 8, 560), 0);
            RoutedAdvice advice = h.extractOutputValues().get(0);

            Router expected = Router.withDefaults(StudyNetwork.build());
            expected.update(EL_SEGUNDO, new ConditionUpdate(EL_SEGUNDO, T0, 0, 8, 560).conditions());
            Route route = expected.route(ROUTING.origin(), ROUTING.destination());
            assertThat(advice.route)
                    .containsExactly(
                            route.vdsIds().stream().mapToLong(Long::longValue).toArray());
            assertThat(advice.route).doesNotContain(WILMINGTON);
            assertThat(advice.routeCostS).isCloseTo(route.costSeconds(), within(1e-9));
            assertThat(advice.routeNs).isPositive();
            // The record's input side may not write the shared state; its broadcast does that.
            assertThat(state(h)).isEmpty();
        } finally {
            h.close();
        }
    }

    @Test
    void aRestoredSubtaskRoutesWithTheRestoredNetworkState() throws Exception {
        OperatorSubtaskState snapshot;
        Router expected = Router.withDefaults(StudyNetwork.build());
        var h = harness();
        try {
            for (ConditionUpdate u : updates()) {
                h.processBroadcastElement(u, 0);
            }
            state(h).values().forEach(u -> expected.update(u.detector, u.conditions()));
            snapshot = h.snapshot(1, 1);
        } finally {
            h.close();
        }
        var restored = new BroadcastOperatorTestHarness<PredictedFlow, ConditionUpdate, RoutedAdvice>(
                new CoBroadcastWithNonKeyedOperator<>(
                        new RouteWithNetworkState(ROUTING), List.of(RouteWithNetworkState.NETWORK_STATE)),
                1,
                1,
                0);
        try {
            restored.setup();
            restored.initializeState(snapshot);
            restored.open();
            // A reading no newer than the restored one of its detector leaves the view as it was.
            restored.processElement(prediction(WILMINGTON, 0, 64, 100), 0);
            Route route = expected.route(ROUTING.origin(), ROUTING.destination());
            RoutedAdvice advice = restored.extractOutputValues().get(0);
            assertThat(advice.routeCostS).isCloseTo(route.costSeconds(), within(1e-9));
            assertThat(state(restored)).hasSize(STUDY.length);
        } finally {
            restored.close();
        }
    }
}
