package org.itsrt.probe.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.itsrt.probe.arrival.Arrival;
import org.junit.jupiter.api.Test;

/** The timeline's point sets: duplicates apart from the rest, whatever their latency. */
class TimelinePointsTest {

    private static final long MS = 1_000_000L;

    @Test
    void duplicatesAreDrawnApartFromTheRecordsTheyRepeat() {
        TimelinePoints points = new TimelinePoints(20 * MS);
        int first = 50;
        int replayed = 7;
        long t = 0;
        for (int seq = 0; seq < first; seq++) {
            t += 10 * MS;
            points.arrived(arrival(seq, t - 2 * MS, t));
        }
        // A replay from seq 43: the first 7 records again, late; then seq 50 on, late too.
        for (int seq = first - replayed; seq < first + 3; seq++) {
            t += 10 * MS;
            points.arrived(arrival(seq, t - 900 * MS, t));
        }

        assertThat(points.duplicates().size()).isEqualTo(replayed);
        assertThat(points.duplicates().fromSentMs(0)).isEqualTo(900f);
        assertThat(points.tail().size()).isEqualTo(3);
        assertThat(points.regular().size()).isEqualTo(first);
        assertThat(points.duplicatesDropped()).isZero();
    }

    private static Arrival arrival(long seq, long sentNs, long arrivalNs) {
        return new Arrival(7, seq, sentNs, Arrival.ABSENT, Arrival.ABSENT, Arrival.ABSENT, Arrival.ABSENT, arrivalNs);
    }
}
