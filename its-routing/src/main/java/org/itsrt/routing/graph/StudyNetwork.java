package org.itsrt.routing.graph;

import static org.itsrt.readings.StudyStation.ATHENS;
import static org.itsrt.readings.StudyStation.EAST_RANCHO_DOMINGUEZ;
import static org.itsrt.readings.StudyStation.EL_SEGUNDO;
import static org.itsrt.readings.StudyStation.LONG_BEACH;
import static org.itsrt.readings.StudyStation.LYNWOOD_GARDENS;
import static org.itsrt.readings.StudyStation.WILMINGTON;

import java.util.List;
import org.itsrt.readings.StudyStation;

/**
 * The study's six-detector network, directed in the direction of travel:
 * <pre>
 *   405 S: El Segundo -> Wilmington -> Long Beach
 *   105 E: El Segundo -> Athens -> Lynwood Gardens
 *   710 S: Lynwood Gardens -> East Rancho Dominguez -> Long Beach
 * </pre>
 * so El Segundo to Long Beach has two routes: 405 S, or 105 E then 710 S.
 *
 * <p>Three stations sit at junctions (El Segundo on the 405 at the 105, Lynwood Gardens on the
 * 105 at the 710, Long Beach on the 405 at the 710) and stand for the junction in the segments
 * of the other freeway; each segment records the freeway it runs on, so the cost function can take
 * its speed from the detector on that freeway.
 *
 * <p>Segment lengths are the great-circle distances of the published coordinates: the stations'
 * postmiles are not published with the study, and the great-circle distance is the shortest
 * length the graph accepts. (The study's own code measured only the east-west component.)
 */
public final class StudyNetwork {

    /** One stretch of the study network: from, to, and the freeway it runs on. */
    private record Link(StudyStation from, StudyStation to, int freeway) {}

    private static final List<Link> LINKS = List.of(
            new Link(EL_SEGUNDO, WILMINGTON, 405),
            new Link(WILMINGTON, LONG_BEACH, 405),
            new Link(EL_SEGUNDO, ATHENS, 105),
            new Link(ATHENS, LYNWOOD_GARDENS, 105),
            new Link(LYNWOOD_GARDENS, EAST_RANCHO_DOMINGUEZ, 710),
            new Link(EAST_RANCHO_DOMINGUEZ, LONG_BEACH, 710));

    private StudyNetwork() {}

    /** Builds the six-detector graph; detectors in {@link StudyStation} order. */
    public static DetectorGraph build() {
        DetectorGraph.Builder builder = DetectorGraph.builder();
        for (StudyStation station : StudyStation.values()) {
            builder.addDetector(Detector.of(station));
        }
        for (Link link : LINKS) {
            double length = GreatCircle.meters(
                    link.from().latitude(),
                    link.from().longitude(),
                    link.to().latitude(),
                    link.to().longitude());
            builder.addSegment(
                    link.from().vdsId(), link.to().vdsId(), length, RoadSegment.Kind.FREEWAY, link.freeway());
        }
        return builder.build();
    }
}
