package org.itsrt.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.GreatCircle;
import org.itsrt.routing.graph.RoadSegment;

/**
 * Random detector graphs, parameters and traffic for property tests, all drawn from one
 * {@link Random} so that a failing seed reproduces the whole case.
 */
final class RandomNetworks {

    private static final int[] FREEWAYS = {5, 105, 405, 710};

    private RandomNetworks() {}

    /**
     * A graph of 2-40 detectors, from a street corner to the whole globe in extent, some of them
     * co-located, joined by random segments at or above their great-circle length.
     */
    static DetectorGraph graph(Random random) {
        int size = 2 + random.nextInt(39);
        double spreadDegrees = new double[] {0.0005, 0.05, 2, 90}[random.nextInt(4)];
        double centreLatitude = -60 + random.nextDouble() * 120;
        double centreLongitude = -180 + random.nextDouble() * 360;
        double edgeProbability = 0.03 + random.nextDouble() * 0.25;

        DetectorGraph.Builder builder = DetectorGraph.builder();
        List<Detector> detectors = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            double latitude;
            double longitude;
            if (!detectors.isEmpty() && random.nextDouble() < 0.15) {
                Detector twin = detectors.get(random.nextInt(detectors.size()));
                latitude = twin.latitude();
                longitude = twin.longitude();
            } else {
                latitude = clamp(centreLatitude + (random.nextDouble() - 0.5) * spreadDegrees, -90, 90);
                longitude = wrap(centreLongitude + (random.nextDouble() - 0.5) * spreadDegrees);
            }
            Detector detector = new Detector(
                    1000 + i,
                    "d" + i,
                    FREEWAYS[random.nextInt(FREEWAYS.length)],
                    "NSEW".charAt(random.nextInt(4)),
                    latitude,
                    longitude,
                    1 + random.nextInt(6));
            detectors.add(detector);
            builder.addDetector(detector);
        }
        for (Detector from : detectors) {
            for (Detector to : detectors) {
                if (from != to && random.nextDouble() < edgeProbability) {
                    builder.addSegment(
                            from.vdsId(),
                            to.vdsId(),
                            length(random, GreatCircle.meters(from, to)),
                            random.nextBoolean() ? RoadSegment.Kind.FREEWAY : RoadSegment.Kind.INTERCHANGE,
                            random.nextBoolean() ? from.freeway() : to.freeway());
                }
            }
        }
        return builder.build();
    }

    /** Exactly the great-circle distance (the tightest case), a little or a lot more. */
    private static double length(Random random, double greatCircle) {
        double draw = random.nextDouble();
        if (draw < 0.3) {
            return greatCircle;
        } else if (draw < 0.8) {
            return greatCircle * (1 + random.nextDouble() * 0.5);
        } else if (draw < 0.9) {
            return greatCircle * (1 + random.nextDouble() * 5);
        }
        return greatCircle + random.nextDouble() * 500;
    }

    /** The defaults half of the time, else any valid parameters. */
    static TravelTimeParameters parameters(Random random) {
        if (random.nextBoolean()) {
            return TravelTimeParameters.DEFAULTS;
        }
        double minSpeed = 1 + random.nextDouble() * 20;
        double freeSpeed = minSpeed + random.nextDouble() * 60;
        double maxSpeed = freeSpeed + (random.nextBoolean() ? 0 : random.nextDouble() * 30);
        return new TravelTimeParameters(
                freeSpeed,
                minSpeed,
                maxSpeed,
                1000 + random.nextDouble() * 1500,
                random.nextDouble(),
                0.5 + random.nextDouble() * 5);
    }

    /**
     * Conditions as a mix of sources produces them: a third without speed, some before any
     * prediction, speeds from standstill to above any limit, flows from empty to jammed.
     */
    static DetectorConditions conditions(Random random) {
        double speed = random.nextDouble() < 0.3 ? Double.NaN : random.nextDouble() * 120;
        double flow = random.nextDouble() < 0.15 ? Double.NaN : random.nextDouble() * 2500;
        return new DetectorConditions(speed, flow);
    }

    /** Updates a random share of the detectors, some of them more than once. */
    static void randomTraffic(Router router, Random random) {
        List<Detector> detectors = router.network().detectors();
        int updates = random.nextInt(2 * detectors.size() + 1);
        for (int i = 0; i < updates; i++) {
            router.update(detectors.get(random.nextInt(detectors.size())).vdsId(), conditions(random));
        }
    }

    private static double clamp(double value, double min, double max) {
        return Math.max(min, Math.min(max, value));
    }

    private static double wrap(double longitude) {
        return ((longitude + 540) % 360) - 180;
    }
}
