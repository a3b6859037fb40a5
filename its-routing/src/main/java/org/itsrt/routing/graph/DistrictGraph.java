package org.itsrt.routing.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.itsrt.readings.BadInputException;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.EdgeReversedGraph;
import org.jgrapht.traverse.BreadthFirstIterator;

/**
 * The check a district's graph must pass before a workload routes over it: every detector on the
 * one road network, none stranded.
 *
 * <p>Strong connectivity (every detector reaches every other) is too strict for any district: its
 * carriageways run on past the district's edge, so the stations after a carriageway's last
 * interchange can be reached but lead nowhere, and those before its first interchange lead in but
 * cannot be reached. Weak connectivity is too loose: it would accept two freeways joined only by a
 * one-way chain. The check is in between:
 *
 * <ul>
 *   <li>the <b>core</b>, the largest strongly connected set of detectors (the interchanges and the
 *       freeway between them), holds at least {@link #DEFAULT_CORE_SHARE} of the detectors, and</li>
 *   <li>every other detector can reach the core or be reached from it (a carriageway's ends).</li>
 * </ul>
 *
 * <p>The offenders are named in two groups: detectors <b>off every freeway</b> (no segment in or
 * out: alone on their freeway and direction and within no interchange radius of another freeway,
 * so they can be neither reached nor left), and the others <b>cut off</b> from the core (e.g. a
 * freeway whose interchanges all lie outside the district). The study's six-station network is
 * not a district (no detector there is reachable back), and nothing asks it to pass this check.
 */
public final class DistrictGraph {

    /** The core must hold at least half the detectors: most of a district lies between interchanges. */
    public static final double DEFAULT_CORE_SHARE = 0.5;

    private static final int IDS_LISTED = 10;

    /**
     * What the check found.
     *
     * @param detectors  detectors in the graph
     * @param core       the largest strongly connected set of detectors
     * @param offFreeway detectors without any segment, by VDS id
     * @param cutOff     other detectors that can neither reach the core nor be reached from it, by VDS id
     */
    public record Check(int detectors, Set<Detector> core, List<Detector> offFreeway, List<Detector> cutOff) {

        public Check {
            core = Set.copyOf(core);
            offFreeway = List.copyOf(offFreeway);
            cutOff = List.copyOf(cutOff);
        }

        /** Whether the core is large enough for this share and no detector is stranded. */
        public boolean passes(double coreShare) {
            return core.size() >= coreShare * detectors && offFreeway.isEmpty() && cutOff.isEmpty();
        }

        /** What is wrong for this core share, in one line; null when the check passes. */
        public String problem(double coreShare) {
            if (passes(coreShare)) {
                return null;
            }
            List<String> problems = new ArrayList<>();
            if (core.size() < coreShare * detectors) {
                problems.add(String.format(
                        java.util.Locale.ROOT,
                        "its largest strongly connected set holds %d of %d detectors, expected at least %.0f%%",
                        core.size(),
                        detectors,
                        100 * coreShare));
            }
            if (!offFreeway.isEmpty()) {
                problems.add(offFreeway.size() + " station(s) off every freeway (alone on their freeway and "
                        + "direction, near no other freeway): " + listed(offFreeway));
            }
            if (!cutOff.isEmpty()) {
                problems.add(cutOff.size() + " detector(s) that can neither reach nor be reached from the "
                        + core.size() + " of the core: " + listed(cutOff));
            }
            return "not one connected district: " + String.join("; ", problems);
        }

        private static String listed(List<Detector> detectors) {
            String ids = detectors.stream()
                    .limit(IDS_LISTED)
                    .map(d -> d.vdsId() + " (" + d.freeway() + "-" + d.direction() + ")")
                    .collect(Collectors.joining(", "));
            return detectors.size() > IDS_LISTED ? ids + " and " + (detectors.size() - IDS_LISTED) + " more" : ids;
        }
    }

    private DistrictGraph() {}

    /** Finds the core and the stranded detectors of the graph. */
    public static Check check(DetectorGraph district) {
        Graph<Detector, RoadSegment> graph = district.graph();
        Set<Detector> core = new KosarajuStrongConnectivityInspector<>(graph)
                .stronglyConnectedSets().stream()
                        .max(Comparator.comparingInt(Set::size))
                        .orElse(Set.of());
        Set<Detector> attached = new HashSet<>(core);
        if (!core.isEmpty()) {
            new BreadthFirstIterator<>(graph, core).forEachRemaining(attached::add);
            new BreadthFirstIterator<>(new EdgeReversedGraph<>(graph), core).forEachRemaining(attached::add);
        }
        List<Detector> offFreeway = new ArrayList<>();
        List<Detector> cutOff = new ArrayList<>();
        district.detectors().stream()
                .sorted(Comparator.comparingLong(Detector::vdsId))
                .filter(detector -> !attached.contains(detector))
                .forEach(detector -> (graph.degreeOf(detector) == 0 ? offFreeway : cutOff).add(detector));
        return new Check(district.detectors().size(), core, offFreeway, cutOff);
    }

    /**
     * Checks the graph with {@link #DEFAULT_CORE_SHARE}.
     *
     * @param source the file the graph was built from, named in the error
     * @throws BadInputException naming the source and every kind of offender, with their VDS ids
     */
    public static Check requireConnected(DetectorGraph district, String source) {
        Check check = check(district);
        String problem = check.problem(DEFAULT_CORE_SHARE);
        if (problem != null) {
            throw new BadInputException(source, null, null, problem);
        }
        return check;
    }
}
