package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.junit.jupiter.api.Test;

/** The array form holds exactly the graph's detectors and their outgoing and incoming segments. */
class CompactDetectorGraphTest {

    @Property(tries = 200)
    void holdsEveryDetectorAndItsOutgoingSegments(@ForAll long seed) {
        DetectorGraph graph = RandomNetworks.graph(new Random(seed));
        CompactDetectorGraph compact = new CompactDetectorGraph(graph);
        List<Detector> detectors = graph.detectors();

        assertThat(compact.size()).isEqualTo(detectors.size());
        for (int i = 0; i < detectors.size(); i++) {
            Detector detector = detectors.get(i);
            assertThat(compact.indexOf(detector.vdsId())).isEqualTo(i);
            assertThat(compact.detector(i)).isSameAs(detector);
            Set<String> slots = new HashSet<>();
            for (int slot = compact.firstOut(i); slot < compact.endOut(i); slot++) {
                slots.add(compact.vdsId(compact.head(slot)) + "#" + compact.segment(slot));
            }
            Set<String> outgoing = graph.graph().outgoingEdgesOf(detector).stream()
                    .map(segment -> segment.to().vdsId() + "#" + segment.index())
                    .collect(Collectors.toSet());
            assertThat(slots).isEqualTo(outgoing);
            assertThat(compact.endOut(i) - compact.firstOut(i)).isEqualTo(outgoing.size());
        }
    }

    @Property(tries = 200)
    void holdsEveryDetectorsIncomingSegments(@ForAll long seed) {
        DetectorGraph graph = RandomNetworks.graph(new Random(seed));
        CompactDetectorGraph compact = new CompactDetectorGraph(graph);
        List<Detector> detectors = graph.detectors();

        for (int i = 0; i < detectors.size(); i++) {
            Set<String> inSlots = new HashSet<>();
            for (int slot = compact.firstIn(i); slot < compact.endIn(i); slot++) {
                inSlots.add(compact.vdsId(compact.tail(slot)) + "#" + compact.inSegment(slot));
            }
            Set<String> incoming = graph.graph().incomingEdgesOf(detectors.get(i)).stream()
                    .map(segment -> segment.from().vdsId() + "#" + segment.index())
                    .collect(Collectors.toSet());
            assertThat(inSlots).isEqualTo(incoming);
            assertThat(compact.endIn(i) - compact.firstIn(i)).isEqualTo(incoming.size());
        }
    }

    @Test
    void anUnknownVdsIdIsNamed() {
        CompactDetectorGraph compact = new CompactDetectorGraph(RandomNetworks.graph(new Random(3)));

        assertThat(compact.indexOf(42)).isEqualTo(-1);
        assertThatThrownBy(() -> compact.requireIndex(42))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no detector with VDS id 42 in this graph");
    }
}
