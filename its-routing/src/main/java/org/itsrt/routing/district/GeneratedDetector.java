package org.itsrt.routing.district;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Random;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.readings.synthetic.SyntheticGenerator;

/**
 * One generated detector: a study station's weekly shape ({@link StudyProfiles.Profile}) made its
 * own. Per detector, drawn once: a level (0.80-1.15 of the study station's flow per lane), a
 * shift of the whole week (normal, sd 15 minutes, at most 45, so its peaks come a little earlier
 * or later) and a free-flow speed (63-70 mph). Per day a day factor (sd 4%); per interval
 * autocorrelated noise and 3% white noise on flow, autocorrelated noise on speed.
 *
 * <p>Flow is the shape's flow per lane at the shifted time, times the level and noise, times the
 * detector's lanes, at most 200 vehicles per lane (2,400 veh/h). Speed is consistent with flow:
 * the lower of the shape's own speed share (the study station's congestion at that time) and the
 * speed the detector's utilisation gives ({@link SyntheticGenerator#speedAt}: free flow up to 62%
 * of capacity, then falling towards 22 mph), times its free-flow speed, plus noise, within 5-80
 * mph. Occupancy follows from both: vehicles per lane-hour times an effective vehicle length of
 * 20 ft over speed.
 *
 * <p>Its random numbers come from its own generator, seeded from the district's seed and its VDS
 * id, and are drawn in interval order, so a detector's readings do not depend on the others.
 */
final class GeneratedDetector {

    /** At most 2,400 veh/h per lane: above any freeway lane's capacity, so only noise is cut. */
    private static final double MAX_FLOW_PER_LANE = 200;

    private static final double EFFECTIVE_VEHICLE_MILES = 20 / 5280.0;

    private final StationMeta station;
    private final StudyProfiles.Profile profile;
    private final Random random;
    private final double level;
    private final double shiftIntervals;
    private final double freeFlowSpeed;
    private LocalDate day;
    private double dayFactor;
    private double flowNoise;
    private double speedNoise;

    /** One 5-minute reading: vehicles over all lanes, mean speed (mph), occupancy (0..1). */
    record Interval(long flow, double speed, double occupancy) {}

    GeneratedDetector(StationMeta station, StudyProfiles.Profile profile, long seed) {
        this.station = station;
        this.profile = profile;
        this.random = new Random(seed * 0x9E3779B97F4A7C15L + station.id());
        this.level = 0.80 + 0.35 * random.nextDouble();
        this.shiftIntervals = Math.max(-9, Math.min(9, 3 * random.nextGaussian()));
        this.freeFlowSpeed = 63 + 7 * random.nextDouble();
    }

    StationMeta station() {
        return station;
    }

    StudyProfiles.Profile profile() {
        return profile;
    }

    /** The reading of the interval starting at this Pacific wall time; called in time order. */
    Interval next(LocalDateTime wallTime) {
        if (!wallTime.toLocalDate().equals(day)) {
            day = wallTime.toLocalDate();
            dayFactor = 1 + 0.04 * random.nextGaussian();
        }
        flowNoise = 0.85 * flowNoise + 0.025 * random.nextGaussian();
        speedNoise = 0.7 * speedNoise + 0.6 * random.nextGaussian();
        double at = StudyProfiles.intervalOfWeek(wallTime) - shiftIntervals;
        double perLane =
                profile.flowPerLaneAt(at) * level * dayFactor * (1 + flowNoise) * (1 + 0.03 * random.nextGaussian());
        perLane = Math.max(0, Math.min(MAX_FLOW_PER_LANE, perLane));
        long flow = Math.round(perLane * station.lanes());

        double utilisation = perLane / SyntheticGenerator.LANE_CAPACITY;
        double share = Math.min(
                profile.speedShareAt(at), SyntheticGenerator.speedAt(freeFlowSpeed, utilisation) / freeFlowSpeed);
        double speed = Math.max(5, Math.min(80, freeFlowSpeed * share + speedNoise));
        speed = Math.round(speed * 10) / 10.0;
        double occupancy = Math.min(1, flow * 12.0 / station.lanes() * EFFECTIVE_VEHICLE_MILES / speed);
        return new Interval(flow, speed, occupancy);
    }
}
