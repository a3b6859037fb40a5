package org.itsrt.routing.district;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;

/**
 * The mean weekly shape of each of the six study stations, taken from a canonical readings
 * table: flow per lane and speed for each 5-minute interval of the week (7 x 288, Monday 00:00
 * first, Pacific wall time), the mean of every reading that falls on it. A generated district's
 * detectors follow these shapes, so a district generated from a real table has the study's real
 * peaks, weekends and congestion.
 *
 * <p>Intervals without a reading (the spring DST hour, gaps) are filled by linear interpolation
 * between their neighbours in the week; the two occurrences of an autumn DST hour share their
 * interval. Speed is kept as a share of the station's free-flow speed (the 90th percentile of
 * its interval means), at most 1; a station without any speed (a flow-only source) has a share
 * of 1 throughout, and its detectors' speeds come from their utilisation alone.
 */
public final class StudyProfiles {

    /** Intervals in a day and in a week. */
    public static final int PER_DAY = 288;

    public static final int PER_WEEK = 7 * PER_DAY;

    /**
     * One station's week.
     *
     * @param station       the study station
     * @param flowPerLane   mean vehicles per lane in each interval of the week
     * @param speedShare    mean speed over the free-flow speed, at most 1, in each interval
     * @param freeFlowSpeed the station's free-flow speed, mph; NaN without speeds
     */
    public record Profile(StudyStation station, double[] flowPerLane, double[] speedShare, double freeFlowSpeed) {

        public Profile {
            flowPerLane = flowPerLane.clone();
            speedShare = speedShare.clone();
        }

        /** Flow per lane at a fractional interval of the week, interpolated, wrapping round the week. */
        public double flowPerLaneAt(double interval) {
            return interpolated(flowPerLane, interval);
        }

        /** Speed share at a fractional interval of the week, interpolated, wrapping round the week. */
        public double speedShareAt(double interval) {
            return interpolated(speedShare, interval);
        }

        private static double interpolated(double[] week, double interval) {
            double at = ((interval % PER_WEEK) + PER_WEEK) % PER_WEEK;
            int below = (int) Math.floor(at);
            double fraction = at - below;
            return (1 - fraction) * week[below % PER_WEEK] + fraction * week[(below + 1) % PER_WEEK];
        }
    }

    private final List<Profile> profiles;
    private final String source;

    private StudyProfiles(List<Profile> profiles, String source) {
        this.profiles = List.copyOf(profiles);
        this.source = source;
    }

    /**
     * Reads the table and takes each study station's week from it; other stations are ignored.
     *
     * @throws BadInputException naming the table, for a study station without readings or without
     *     a reading on some day of the week (a profile needs at least one whole week)
     */
    public static StudyProfiles from(Path table) throws IOException {
        return from(table, table.toString());
    }

    /**
     * As {@link #from(Path)}, the table shown as {@code shownAs} in errors and in {@link #source()}.
     */
    public static StudyProfiles from(Path table, String shownAs) throws IOException {
        StudyProfiles read = of(CanonicalTable.read(table), shownAs);
        return new StudyProfiles(read.profiles, shownAs + " (SHA-256 " + sha256(table) + ")");
    }

    /** As {@link #from(Path)}, from readings already read; {@code source} names them in errors. */
    public static StudyProfiles of(List<Reading> readings, String source) {
        StudyStation[] stations = StudyStation.values();
        double[][] flowSums = new double[stations.length][PER_WEEK];
        double[][] speedSums = new double[stations.length][PER_WEEK];
        int[][] flowCounts = new int[stations.length][PER_WEEK];
        int[][] speedCounts = new int[stations.length][PER_WEEK];
        for (Reading reading : readings) {
            StudyStation station = StudyStation.byVdsId(reading.stationId()).orElse(null);
            if (station == null) {
                continue;
            }
            int s = station.ordinal();
            int interval = intervalOfWeek(reading.tsLocal().toLocalDateTime());
            flowSums[s][interval] += reading.flow() / reading.lanes();
            flowCounts[s][interval]++;
            if (reading.hasSpeed()) {
                speedSums[s][interval] += reading.speed();
                speedCounts[s][interval]++;
            }
        }
        Profile[] profiles = new Profile[stations.length];
        for (StudyStation station : stations) {
            int s = station.ordinal();
            requireEveryDay(station, flowCounts[s], source);
            double[] flow = filled(means(flowSums[s], flowCounts[s]));
            double[] speed = means(speedSums[s], speedCounts[s]);
            double freeFlow = freeFlowSpeed(speed);
            double[] share = new double[PER_WEEK];
            if (Double.isNaN(freeFlow)) {
                Arrays.fill(share, 1);
            } else {
                double[] filled = filled(speed);
                for (int i = 0; i < PER_WEEK; i++) {
                    share[i] = Math.min(1, filled[i] / freeFlow);
                }
            }
            profiles[s] = new Profile(station, flow, share, freeFlow);
        }
        return new StudyProfiles(List.of(profiles), source);
    }

    /** The six profiles, in {@link StudyStation} order. */
    public List<Profile> profiles() {
        return profiles;
    }

    /** Where the profiles came from: the table as shown, and its SHA-256 when read from a file. */
    public String source() {
        return source;
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The interval of the week (Monday 00:00 is 0) a Pacific wall time falls in. */
    public static int intervalOfWeek(LocalDateTime wallTime) {
        return (wallTime.getDayOfWeek().getValue() - 1) * PER_DAY
                + (wallTime.getHour() * 60 + wallTime.getMinute()) / 5;
    }

    private static void requireEveryDay(StudyStation station, int[] counts, String source) {
        String which = "station " + station.vdsId() + " (" + station.displayName() + ")";
        if (Arrays.stream(counts).allMatch(count -> count == 0)) {
            throw new BadInputException(
                    source,
                    null,
                    null,
                    which + " has no readings; a profile table needs readings of the six study stations, "
                            + "at least a whole week of each");
        }
        for (DayOfWeek day : DayOfWeek.values()) {
            int first = (day.getValue() - 1) * PER_DAY;
            if (Arrays.stream(counts, first, first + PER_DAY).allMatch(count -> count == 0)) {
                throw new BadInputException(
                        source,
                        null,
                        null,
                        which + " has no readings on a " + day.getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                                + "; a profile table needs at least a whole week of each study station");
            }
        }
    }

    private static double[] means(double[] sums, int[] counts) {
        double[] means = new double[sums.length];
        for (int i = 0; i < sums.length; i++) {
            means[i] = counts[i] == 0 ? Double.NaN : sums[i] / counts[i];
        }
        return means;
    }

    /** The 90th percentile of the known interval means: the speed of the free-flowing hours. */
    private static double freeFlowSpeed(double[] speeds) {
        double[] known =
                Arrays.stream(speeds).filter(v -> !Double.isNaN(v)).sorted().toArray();
        return known.length == 0 ? Double.NaN : known[(int) Math.floor(0.9 * (known.length - 1))];
    }

    /** NaN intervals replaced by linear interpolation between the nearest known ones, round the week. */
    private static double[] filled(double[] week) {
        double[] filled = week.clone();
        int n = week.length;
        for (int i = 0; i < n; i++) {
            if (!Double.isNaN(week[i])) {
                continue;
            }
            int before = 1;
            while (Double.isNaN(week[Math.floorMod(i - before, n)])) {
                before++;
            }
            int after = 1;
            while (Double.isNaN(week[(i + after) % n])) {
                after++;
            }
            double from = week[Math.floorMod(i - before, n)];
            double to = week[(i + after) % n];
            filled[i] = from + (to - from) * before / (before + after);
        }
        return filled;
    }
}
