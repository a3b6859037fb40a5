package org.itsrt.readings;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One row of the canonical readings table (docs/canonical-table.md): what one detector station
 * measured in one 5-minute interval.
 *
 * @param stationId   PeMS VDS id of the station
 * @param tsUtc       start of the 5-minute interval; the only time key
 * @param flow        vehicles counted in the interval over all lanes
 * @param speed       average speed over all lanes (mph); {@code null} = unknown, never 0 for unknown
 * @param pctObserved share (0..100) of lane points observed rather than imputed by PeMS;
 *                    {@code null} = not reported
 * @param lanes       number of lanes the source reports for the station
 * @param source      where the row came from, one of the {@code SOURCE_*} labels or
 *                    {@link #syntheticSource(long)}
 */
public record Reading(
        long stationId, Instant tsUtc, double flow, Double speed, Double pctObserved, int lanes, String source) {

    /** PeMS timestamps are wall-clock time of this zone. */
    public static final ZoneId PACIFIC = ZoneId.of("America/Los_Angeles");

    public static final Duration INTERVAL = Duration.ofMinutes(5);

    public static final String SOURCE_REPORT = "pems-report";
    public static final String SOURCE_REPORT_FLOW_ONLY = "pems-report-flow-only";
    public static final String SOURCE_CLEARINGHOUSE = "pems-clearinghouse";
    private static final String SYNTHETIC_PREFIX = "synthetic:seed=";
    private static final Pattern SYNTHETIC_SOURCE = Pattern.compile("synthetic:seed=-?\\d+");

    public Reading {
        if (stationId <= 0) {
            throw new IllegalArgumentException("station id must be positive: " + stationId);
        }
        Objects.requireNonNull(tsUtc, "tsUtc");
        if (tsUtc.getNano() != 0 || tsUtc.getEpochSecond() % INTERVAL.toSeconds() != 0) {
            throw new IllegalArgumentException("not the start of a 5-minute interval: " + tsUtc);
        }
        if (!(flow >= 0) || Double.isInfinite(flow)) {
            throw new IllegalArgumentException("flow must be a finite number >= 0: " + flow);
        }
        if (speed != null && (!(speed >= 0) || speed.isInfinite())) {
            throw new IllegalArgumentException("speed must be a finite number >= 0 or null: " + speed);
        }
        if (pctObserved != null && !(pctObserved >= 0 && pctObserved <= 100)) {
            throw new IllegalArgumentException("pct_observed must be in 0..100 or null: " + pctObserved);
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be >= 1: " + lanes);
        }
        if (!isKnownSource(source)) {
            throw new IllegalArgumentException("unknown source label: " + source);
        }
    }

    /** The source label of generated data; it names the seed so a table can be regenerated. */
    public static String syntheticSource(long seed) {
        return SYNTHETIC_PREFIX + seed;
    }

    public static boolean isKnownSource(String source) {
        return source != null
                && (source.equals(SOURCE_REPORT)
                        || source.equals(SOURCE_REPORT_FLOW_ONLY)
                        || source.equals(SOURCE_CLEARINGHOUSE)
                        || SYNTHETIC_SOURCE.matcher(source).matches());
    }

    /** The same instant as Pacific wall time with the offset in force then. */
    public OffsetDateTime tsLocal() {
        return tsUtc.atZone(PACIFIC).toOffsetDateTime();
    }

    public boolean hasSpeed() {
        return speed != null;
    }

    public boolean isSynthetic() {
        return source.startsWith(SYNTHETIC_PREFIX);
    }
}
