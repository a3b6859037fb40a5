package org.itsrt.readings.pems;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.readings.Reading;

/**
 * The data-quality figures of one station's imported readings.
 *
 * @param stationId          VDS id
 * @param name               the station's name where known (study station or metadata), else empty
 * @param rows               readings in the table
 * @param first              the first reading's interval, Pacific; null without readings
 * @param last               the last reading's interval, Pacific; null without readings
 * @param expected           5-minute intervals from first to last, both included
 * @param missing            expected intervals without a reading
 * @param gaps               the runs of missing intervals, in time order
 * @param duplicates         readings dropped because another reading of the interval said the same
 * @param conflicts          readings dropped because another, richer reading of the interval disagreed
 * @param filledFromFlowOnly readings taken from flow-only exports (no full export had the interval)
 * @param unknownSpeed       readings without speed
 * @param imputedPct         share (%) of readings with pct_observed = 0, all lanes imputed by PeMS;
 *                           null without readings
 * @param meanPctObserved    mean pct_observed of the readings that report it; null if none do
 * @param skipped            rows of this station skipped (malformed in a lenient import, or without flow)
 */
public record StationQuality(
        long stationId,
        String name,
        int rows,
        OffsetDateTime first,
        OffsetDateTime last,
        long expected,
        long missing,
        List<Gap> gaps,
        int duplicates,
        int conflicts,
        int filledFromFlowOnly,
        int unknownSpeed,
        Double imputedPct,
        Double meanPctObserved,
        int skipped) {

    /**
     * A run of missing intervals.
     *
     * @param firstMissing the first missing interval, Pacific
     * @param lastMissing  the last missing interval, Pacific
     * @param intervals    how many intervals are missing
     */
    public record Gap(OffsetDateTime firstMissing, OffsetDateTime lastMissing, long intervals) {}

    public StationQuality {
        gaps = List.copyOf(gaps);
    }

    /** The longest gap in intervals, 0 without gaps. */
    public long longestGap() {
        return gaps.stream().mapToLong(Gap::intervals).max().orElse(0);
    }

    /**
     * Computes the figures from a station's kept readings (in time order) and the counts the
     * merge and the readers kept.
     */
    static StationQuality of(
            long stationId, String name, List<Reading> readings, int duplicates, int conflicts, int skipped) {
        if (readings.isEmpty()) {
            return new StationQuality(
                    stationId, name, 0, null, null, 0, 0, List.of(), duplicates, conflicts, 0, 0, null, null, skipped);
        }
        long intervalSeconds = Reading.INTERVAL.toSeconds();
        List<Gap> gaps = new ArrayList<>();
        int flowOnly = 0;
        int unknownSpeed = 0;
        int imputed = 0;
        int withPct = 0;
        double pctSum = 0;
        Reading previous = null;
        for (Reading reading : readings) {
            if (previous != null) {
                long step = Duration.between(previous.tsUtc(), reading.tsUtc()).toSeconds() / intervalSeconds;
                if (step > 1) {
                    gaps.add(new Gap(
                            previous.tsUtc()
                                    .plus(Reading.INTERVAL)
                                    .atZone(Reading.PACIFIC)
                                    .toOffsetDateTime(),
                            reading.tsUtc()
                                    .minus(Reading.INTERVAL)
                                    .atZone(Reading.PACIFIC)
                                    .toOffsetDateTime(),
                            step - 1));
                }
            }
            flowOnly += Reading.SOURCE_REPORT_FLOW_ONLY.equals(reading.source()) ? 1 : 0;
            unknownSpeed += reading.hasSpeed() ? 0 : 1;
            if (reading.pctObserved() != null) {
                withPct++;
                pctSum += reading.pctObserved();
                imputed += reading.pctObserved() == 0 ? 1 : 0;
            }
            previous = reading;
        }
        Reading first = readings.get(0);
        Reading last = readings.get(readings.size() - 1);
        long expected = Duration.between(first.tsUtc(), last.tsUtc()).toSeconds() / intervalSeconds + 1;
        return new StationQuality(
                stationId,
                name,
                readings.size(),
                first.tsLocal(),
                last.tsLocal(),
                expected,
                expected - readings.size(),
                gaps,
                duplicates,
                conflicts,
                flowOnly,
                unknownSpeed,
                100.0 * imputed / readings.size(),
                withPct == 0 ? null : pctSum / withPct,
                skipped);
    }
}
