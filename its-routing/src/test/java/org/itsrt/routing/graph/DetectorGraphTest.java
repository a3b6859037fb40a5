package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DetectorGraphTest {

    private static final Detector A = new Detector(1, "a", 405, 'S', 33.90, -118.30, 4);
    private static final Detector B = new Detector(2, "b", 405, 'S', 33.88, -118.28, 4);
    private static final Detector C = new Detector(3, "c", 105, 'E', 33.88, -118.27, 3);
    private static final double A_TO_B = GreatCircle.meters(A, B);

    private static DetectorGraph.Builder abc() {
        return DetectorGraph.builder().addDetector(A).addDetector(B).addDetector(C);
    }

    @Test
    void acceptsALengthEqualToTheGreatCircleDistanceAndLongerOnes() {
        DetectorGraph graph = abc().addSegment(1, 2, A_TO_B, RoadSegment.Kind.FREEWAY, 405)
                .addSegment(2, 3, GreatCircle.meters(B, C) * 3, RoadSegment.Kind.INTERCHANGE, 105)
                .build();

        assertThat(graph.segments()).hasSize(2);
        RoadSegment first = graph.segments().get(0);
        assertThat(first.from()).isEqualTo(A);
        assertThat(first.to()).isEqualTo(B);
        assertThat(first.lengthMeters()).isEqualTo(A_TO_B);
        assertThat(graph.graph().getEdge(A, B)).isSameAs(first);
        assertThat(graph.graph().containsEdge(B, A)).isFalse();
    }

    @Test
    void rejectsASegmentShorterThanTheGreatCircleDistance() {
        DetectorGraph.Builder builder = abc();
        assertThatThrownBy(() -> builder.addSegment(1, 2, Math.nextDown(A_TO_B), RoadSegment.Kind.FREEWAY, 405))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("segment 1 -> 2")
                .hasMessageContaining("great-circle");
        assertThatThrownBy(() -> builder.addSegment(1, 2, Double.NaN, RoadSegment.Kind.FREEWAY, 405))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.addSegment(1, 2, Double.POSITIVE_INFINITY, RoadSegment.Kind.FREEWAY, 405))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsANegativeZeroOrNaNLengthNamingTheSegment() {
        DetectorGraph.Builder builder = abc();
        for (double length : new double[] {-1, -A_TO_B, Double.NaN, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> builder.addSegment(1, 2, length, RoadSegment.Kind.FREEWAY, 405))
                    .as("length %s", length)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("segment 1 -> 2: length " + length + " m; expected a finite number of meters >= 0");
        }
        // Zero between detectors apart is shorter than the straight line between them.
        assertThatThrownBy(() -> builder.addSegment(1, 2, 0, RoadSegment.Kind.FREEWAY, 405))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("segment 1 -> 2: length 0.0 m must be finite and at least the great-circle");
        // Zero is kept only for detectors at the same coordinates (co-located stations).
        Detector twin = new Detector(4, "a'", 405, 'S', A.latitude(), A.longitude(), 4);
        DetectorGraph graph = abc().addDetector(twin)
                .addSegment(1, 4, 0, RoadSegment.Kind.FREEWAY, 405)
                .build();
        assertThat(graph.segments().get(0).lengthMeters()).isZero();
    }

    @Test
    void rejectsLoopsDuplicatesUnknownDetectorsAndForeignFreeways() {
        DetectorGraph.Builder builder = abc().addSegment(1, 2, A_TO_B, RoadSegment.Kind.FREEWAY, 405);

        assertThatThrownBy(() -> builder.addSegment(1, 2, A_TO_B * 2, RoadSegment.Kind.FREEWAY, 405))
                .hasMessageContaining("already");
        assertThatThrownBy(() -> builder.addSegment(1, 1, 0, RoadSegment.Kind.FREEWAY, 405))
                .hasMessageContaining("two different detectors");
        assertThatThrownBy(() -> builder.addSegment(1, 9, 1e6, RoadSegment.Kind.FREEWAY, 405))
                .hasMessageContaining("detector 9 has not been added");
        assertThatThrownBy(() -> builder.addSegment(2, 3, 1e6, RoadSegment.Kind.INTERCHANGE, 710))
                .hasMessageContaining("freeway 710");
        assertThatThrownBy(() -> builder.addDetector(new Detector(1, "again", 5, 'N', 34, -118, 2)))
                .hasMessageContaining("duplicate VDS id 1");
    }

    @Test
    void indexesSegmentsDenselyAndLooksDetectorsUpById() {
        DetectorGraph graph = abc().addSegment(1, 2, A_TO_B, RoadSegment.Kind.FREEWAY, 405)
                .addSegment(2, 3, 1e4, RoadSegment.Kind.INTERCHANGE, 105)
                .addSegment(3, 1, 1e4, RoadSegment.Kind.INTERCHANGE, 405)
                .build();

        for (int i = 0; i < graph.segments().size(); i++) {
            assertThat(graph.segments().get(i).index()).isEqualTo(i);
        }
        assertThat(graph.requireDetector(3)).isEqualTo(C);
        assertThat(graph.detector(4)).isEmpty();
        assertThat(graph.contains(2)).isTrue();
        assertThatThrownBy(() -> graph.requireDetector(4)).hasMessageContaining("VDS id 4");
        assertThat(graph.detectors()).containsExactly(A, B, C);
    }

    @Test
    void isReadOnlyOnceBuilt() {
        DetectorGraph.Builder builder = abc();
        DetectorGraph graph = builder.build();

        assertThatThrownBy(() -> graph.graph().addVertex(new Detector(7, "", 5, 'N', 34, -118, 2)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> builder.addSegment(1, 2, A_TO_B, RoadSegment.Kind.FREEWAY, 405))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void detectorsRejectImpossibleValues() {
        assertThatThrownBy(() -> new Detector(1, "", 405, 'X', 34, -118, 3)).hasMessageContaining("direction");
        assertThatThrownBy(() -> new Detector(1, "", 405, 'S', 91, -118, 3)).hasMessageContaining("latitude");
        assertThatThrownBy(() -> new Detector(1, "", 405, 'S', Double.NaN, -118, 3))
                .hasMessageContaining("latitude");
        assertThatThrownBy(() -> new Detector(1, "", 405, 'S', 34, -118, 0)).hasMessageContaining("lanes");
    }
}
