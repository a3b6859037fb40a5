package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import org.itsrt.routing.graph.StudyNetwork;
import org.junit.jupiter.api.Test;

class RouteAdvisorTest {

    private static final long EL_SEGUNDO = 764598;
    private static final long WILMINGTON = 717731;
    private static final long LONG_BEACH = 774445;
    private static final Instant T0 = Instant.parse("2018-03-05T17:00:00Z");

    private static RouteAdvisor advisor() {
        return new RouteAdvisor(StudyNetwork.build(), EL_SEGUNDO, LONG_BEACH);
    }

    @Test
    void routesLikeTheRouterUnderTheConditionsTaken() {
        RouteAdvisor advisor = advisor();
        Router router = Router.withDefaults(StudyNetwork.build());
        assertThat(advisor.route().vdsIds())
                .isEqualTo(router.route(EL_SEGUNDO, LONG_BEACH).vdsIds());

        assertThat(advisor.update(EL_SEGUNDO, T0, 0, DetectorConditions.of(15, 400)))
                .isTrue();
        assertThat(advisor.update(WILMINGTON, T0, 0, DetectorConditions.of(12, 350)))
                .isTrue();
        router.update(EL_SEGUNDO, DetectorConditions.of(15, 400));
        router.update(WILMINGTON, DetectorConditions.of(12, 350));

        Route expected = router.route(EL_SEGUNDO, LONG_BEACH);
        assertThat(advisor.route().vdsIds()).isEqualTo(expected.vdsIds()).doesNotContain(WILMINGTON);
        assertThat(advisor.route().costSeconds()).isCloseTo(expected.costSeconds(), within(1e-9));
    }

    @Test
    void keepsEachDetectorsNewestConditionsWhateverTheOrderTheyComeIn() {
        DetectorConditions jam = DetectorConditions.of(10, 500);
        DetectorConditions clear = DetectorConditions.of(64, 300);
        for (List<Integer> order : List.of(List.of(0, 1, 2), List.of(2, 1, 0), List.of(1, 2, 0))) {
            RouteAdvisor advisor = advisor();
            for (int k : order) {
                switch (k) {
                    case 0 -> advisor.update(EL_SEGUNDO, T0, 5, clear);
                    // Same reading time, higher seq: newer than reading 0.
                    case 1 -> advisor.update(EL_SEGUNDO, T0, 6, clear);
                    // Later reading time, lower seq: the newest of the three.
                    default -> advisor.update(EL_SEGUNDO, T0.plusSeconds(300), 1, jam);
                }
            }
            RouteAdvisor jammed = advisor();
            jammed.update(EL_SEGUNDO, T0, 0, jam);
            assertThat(advisor.route().costSeconds())
                    .as("order %s", order)
                    .isCloseTo(jammed.route().costSeconds(), within(1e-9));
        }
    }

    @Test
    void anOlderReadingIsNotTaken() {
        RouteAdvisor advisor = advisor();
        assertThat(advisor.update(EL_SEGUNDO, T0.plusSeconds(300), 1, DetectorConditions.of(60, 300)))
                .isTrue();
        assertThat(advisor.update(EL_SEGUNDO, T0, 9, DetectorConditions.of(10, 900)))
                .isFalse();
        assertThat(advisor.update(EL_SEGUNDO, T0.plusSeconds(300), 1, DetectorConditions.of(10, 900)))
                .isFalse();
        assertThat(RouteAdvisor.isNewer(T0, 2, T0, 1)).isTrue();
        assertThat(RouteAdvisor.isNewer(T0, 1, T0.plusSeconds(1), 0)).isFalse();
    }

    @Test
    void anEndOutsideTheGraphIsRejected() {
        assertThatThrownBy(() -> new RouteAdvisor(StudyNetwork.build(), 999_999, LONG_BEACH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("999999");
    }
}
