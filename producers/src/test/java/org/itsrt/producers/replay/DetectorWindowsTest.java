package org.itsrt.producers.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.readings.Reading;
import org.itsrt.records.ReadingRecord;
import org.junit.jupiter.api.Test;

class DetectorWindowsTest {

    private static final Instant T0 = Instant.parse("2018-03-01T08:00:00Z");

    private static Reading reading(long station, int interval, Double speed) {
        return new Reading(
                station,
                T0.plus(Reading.INTERVAL.multipliedBy(interval)),
                100 + interval,
                speed,
                null,
                3,
                "synthetic:seed=1");
    }

    @Test
    void windowsAreTwelveConsecutiveReadingsNeverAcrossAGapAndCycle() {
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < 13; i++) {
            readings.add(reading(7, i, i == 12 ? null : 60.0));
        }
        // a gap: intervals 13..19 missing, then 12 more
        for (int i = 20; i < 32; i++) {
            readings.add(reading(7, i, 55.0));
        }
        DetectorWindows windows = DetectorWindows.of(readings, List.of(7L)).get(0);

        assertThat(windows.size()).isEqualTo(3); // 0-11, 1-12, 20-31
        ReadingRecord first = windows.next(0);
        assertThat(first.ts()).isEqualTo(T0.plus(Reading.INTERVAL.multipliedBy(11)));
        assertThat(first.flow()).startsWith(100, 101).endsWith(111);
        ReadingRecord second = windows.next(1);
        assertThat(Double.isNaN(second.speed()[11]))
                .as("an unknown speed stays unknown")
                .isTrue();
        assertThat(windows.next(2).flow()[0]).isEqualTo(120);
        ReadingRecord again = windows.next(3);
        assertThat(again.seq()).isEqualTo(3);
        assertThat(again.ts()).as("cycled back to the first window").isEqualTo(first.ts());
    }

    @Test
    void aDetectorMissingFromTheTableIsNamed() {
        List<Reading> readings = List.of(reading(7, 0, 60.0));
        assertThatThrownBy(() -> DetectorWindows.of(readings, List.of(8L)))
                .hasMessageContaining("detector 8 has no readings");
        assertThatThrownBy(() -> DetectorWindows.of(readings, List.of(7L)))
                .hasMessageContaining("detector 7 has no 12 consecutive");
    }
}
