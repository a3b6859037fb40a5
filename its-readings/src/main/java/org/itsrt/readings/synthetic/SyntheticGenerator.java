package org.itsrt.readings.synthetic;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;

/**
 * Generates canonical readings for the six study stations, so that everything downstream runs
 * without PeMS files. Every row is labelled {@code synthetic:seed=N}; the same seed gives the
 * same readings.
 *
 * <p>The model, per station and 5-minute interval of Pacific wall time: a daily utilisation
 * profile (a night low, a daytime plateau, and on weekdays an AM and a PM peak whose times and
 * heights depend on the freeway and direction; on weekends a later, flatter midday hump), scaled
 * by the station's lanes; day-to-day variation, autocorrelated noise, and occasional incidents
 * (20-90 minutes in which flow and speed drop, with a short recovery). Speed follows flow: free
 * flow at 65-70 mph, falling as utilisation nears capacity and sharply in incidents.
 *
 * <p>Days are Pacific calendar days, so the spring DST day has 276 intervals and the autumn one
 * 300 (a March has 8,916 per station).
 */
public final class SyntheticGenerator {

    /** Vehicles one lane carries in 5 minutes at capacity (about 1,900 veh/h). */
    public static final double LANE_CAPACITY = 160;

    private static final double NIGHT_UTILISATION = 0.06;
    /** Utilisation above which speed starts to fall, and the span over which it reaches its floor. */
    private static final double CONGESTION_ONSET = 0.62;

    private static final double CONGESTION_SPAN = 0.33;
    private static final double CONGESTED_SPEED = 22;
    private static final Duration INCIDENT_RECOVERY = Duration.ofMinutes(15);

    private final long seed;

    public SyntheticGenerator(long seed) {
        this.seed = seed;
    }

    /**
     * Readings of all six stations for {@code days} Pacific calendar days from {@code start},
     * sorted by station, then time.
     */
    public List<Reading> generate(LocalDate start, int days) {
        if (days < 1) {
            throw new IllegalArgumentException("days must be >= 1: " + days);
        }
        List<Reading> readings = new ArrayList<>();
        Arrays.stream(StudyStation.values())
                .sorted(Comparator.comparingLong(StudyStation::vdsId))
                .forEach(station -> generateStation(station, start, days, readings));
        return readings;
    }

    private void generateStation(StudyStation station, LocalDate start, int days, List<Reading> out) {
        // One generator per station, seeded from the seed and the station, so that a station's
        // readings do not depend on which other stations are generated.
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + station.vdsId());
        Corridor corridor = Corridor.of(station);
        double capacity = station.lanes() * LANE_CAPACITY * (0.85 + 0.2 * random.nextDouble());
        double freeFlowSpeed = 65 + 5 * random.nextDouble();
        List<Incident> incidents = incidents(random, start, days);
        String source = Reading.syntheticSource(seed);

        double flowNoise = 0;
        double speedNoise = 0;
        for (int day = 0; day < days; day++) {
            LocalDate date = start.plusDays(day);
            double dayFactor = 1 + 0.04 * random.nextGaussian();
            Instant end = date.plusDays(1).atStartOfDay(Reading.PACIFIC).toInstant();
            for (Instant ts = date.atStartOfDay(Reading.PACIFIC).toInstant();
                    ts.isBefore(end);
                    ts = ts.plus(Reading.INTERVAL)) {
                LocalTime wallTime = ts.atZone(Reading.PACIFIC).toLocalTime();
                double hour = wallTime.getHour() + wallTime.getMinute() / 60.0;
                flowNoise = 0.85 * flowNoise + 0.025 * random.nextGaussian();
                speedNoise = 0.7 * speedNoise + 0.6 * random.nextGaussian();
                double utilisation = corridor.utilisation(date, hour)
                        * dayFactor
                        * (1 + flowNoise)
                        * (1 + 0.03 * random.nextGaussian());
                double incident = incidentSeverity(incidents, ts);
                double flow = Math.max(0, capacity * utilisation * (1 - 0.5 * incident));
                double speed = speedAt(freeFlowSpeed, utilisation) + speedNoise;
                if (incident > 0) {
                    speed = Math.min(speed, freeFlowSpeed * (1 - 0.75 * incident));
                }
                speed = Math.max(5, Math.min(80, speed));
                out.add(new Reading(
                        station.vdsId(),
                        ts,
                        Math.round(flow),
                        Math.round(speed * 10) / 10.0,
                        null,
                        station.lanes(),
                        source));
            }
        }
    }

    /**
     * Speed (mph) for a utilisation (flow over {@link #LANE_CAPACITY} per lane): free flow until
     * congestion sets in at 62%, then down towards 22 mph as utilisation nears capacity.
     */
    public static double speedAt(double freeFlowSpeed, double utilisation) {
        double congestion = Math.max(0, Math.min(1, (utilisation - CONGESTION_ONSET) / CONGESTION_SPAN));
        return freeFlowSpeed - (freeFlowSpeed - CONGESTED_SPEED) * Math.pow(congestion, 1.6);
    }

    /**
     * @param start    when it begins
     * @param end      when the road is clear again; flow and speed recover over the next minutes
     * @param severity 0..1, how hard it hits flow and speed
     */
    private record Incident(Instant start, Instant end, double severity) {}

    /** About two incidents a week per station, in the daytime, lasting 20-90 minutes. */
    private static List<Incident> incidents(Random random, LocalDate start, int days) {
        List<Incident> incidents = new ArrayList<>();
        for (int day = 0; day < days; day++) {
            int count = (random.nextDouble() < 0.25 ? 1 : 0) + (random.nextDouble() < 0.05 ? 1 : 0);
            for (int i = 0; i < count; i++) {
                int startMinute = 5 * 60 + random.nextInt(17 * 60);
                int minutes = 20 + random.nextInt(71);
                ZonedDateTime begin =
                        start.plusDays(day).atStartOfDay(Reading.PACIFIC).plusMinutes(startMinute);
                incidents.add(new Incident(
                        begin.toInstant(), begin.plusMinutes(minutes).toInstant(), 0.4 + 0.4 * random.nextDouble()));
            }
        }
        return incidents;
    }

    /** The strongest incident effect at an instant: its severity, fading linearly during recovery. */
    private static double incidentSeverity(List<Incident> incidents, Instant ts) {
        double strongest = 0;
        for (Incident incident : incidents) {
            if (ts.isBefore(incident.start())) {
                continue;
            }
            if (ts.isBefore(incident.end())) {
                strongest = Math.max(strongest, incident.severity());
            } else {
                double fade =
                        1 - (double) Duration.between(incident.end(), ts).toSeconds() / INCIDENT_RECOVERY.toSeconds();
                strongest = Math.max(strongest, incident.severity() * Math.max(0, fade));
            }
        }
        return strongest;
    }

    /**
     * The daily shape of one freeway and direction: peak times (hours of wall time), widths
     * (hours) and heights (utilisation added to the daytime plateau).
     */
    private record Corridor(
            double amPeak,
            double amWidth,
            double amHeight,
            double pmPeak,
            double pmWidth,
            double pmHeight,
            double daytime) {

        static Corridor of(StudyStation station) {
            return switch (station.freeway()) {
                // 405 southbound: the evening commute out of the Westside dominates.
                case 405 -> new Corridor(7.75, 1.3, 0.22, 17.0, 1.6, 0.32, 0.55);
                // 105 eastbound: a sharper morning peak than evening one.
                case 105 -> new Corridor(7.25, 1.1, 0.30, 17.5, 1.4, 0.20, 0.55);
                // 710 southbound: port trucks keep midday busy; earlier, flatter peaks.
                case 710 -> new Corridor(6.75, 1.2, 0.18, 16.25, 1.5, 0.16, 0.62);
                default -> throw new IllegalArgumentException("no profile for freeway " + station.freeway());
            };
        }

        /** Share of capacity in use at {@code hour} (0..24, wall time) of {@code date}, before noise. */
        double utilisation(LocalDate date, double hour) {
            // Today's daytime plus the tail of yesterday's evening, so midnight is continuous.
            double daytimeShare = dayShape(date, hour) + dayShape(date.minusDays(1), hour + 24);
            double level = NIGHT_UTILISATION + (plateau(date) - NIGHT_UTILISATION) * daytimeShare;
            if (isWeekend(date)) {
                return level + 0.12 * bump(hour, 14.0, 2.5);
            }
            return level + amHeight * bump(hour, amPeak, amWidth) + pmHeight * bump(hour, pmPeak, pmWidth);
        }

        private double plateau(LocalDate date) {
            return switch (date.getDayOfWeek()) {
                case SATURDAY -> daytime - 0.05;
                case SUNDAY -> daytime - 0.10;
                default -> daytime;
            };
        }

        /** 0 at night, 1 in the daytime: a morning rise and an evening fall (weekends rise later). */
        private static double dayShape(LocalDate date, double hour) {
            double rise = isWeekend(date) ? logistic((hour - 8.0) / 1.0) : logistic((hour - 5.5) / 0.6);
            double fall = 1 - logistic((hour - (isWeekend(date) ? 22.5 : 21.5)) / 1.2);
            return rise * fall;
        }

        private static boolean isWeekend(LocalDate date) {
            return date.getDayOfWeek() == DayOfWeek.SATURDAY || date.getDayOfWeek() == DayOfWeek.SUNDAY;
        }

        private static double bump(double hour, double centre, double width) {
            double z = (hour - centre) / width;
            return Math.exp(-0.5 * z * z);
        }

        private static double logistic(double x) {
            return 1 / (1 + Math.exp(-x));
        }
    }
}
