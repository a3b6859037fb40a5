package org.itsrt.producers.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.records.ReadingRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        ReadingRecord first = windows.record(0);
        assertThat(first.ts()).isEqualTo(T0.plus(Reading.INTERVAL.multipliedBy(11)));
        assertThat(first.flow()).startsWith(100, 101).endsWith(111);
        ReadingRecord second = windows.record(1);
        assertThat(Double.isNaN(second.speed()[11]))
                .as("an unknown speed stays unknown")
                .isTrue();
        assertThat(windows.record(2).flow()[0]).isEqualTo(120);
        ReadingRecord again = windows.record(3);
        assertThat(again.seq()).isEqualTo(3);
        assertThat(again.ts()).as("cycled back to the first window").isEqualTo(first.ts());
    }

    /**
     * A district's day: 4,800 detectors of 288 readings each, written as a canonical table and read
     * back. Its arrays take at most 24 bytes a reading; the heap the replay keeps, measured around
     * a garbage collection, is printed for docs/producers.md ("Many detectors").
     */
    @Test
    void aDistrictsDayIsHeldInPrimitiveArrays(@TempDir Path dir) throws Exception {
        int detectors = 4_800;
        int readingsPerDay = 288;
        Path table = dir.resolve("district.csv");
        List<Long> ids = new ArrayList<>();
        DateTimeFormatter utc =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
        DateTimeFormatter local = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");
        try (Writer out = Files.newBufferedWriter(table)) {
            out.write(String.join(",", CanonicalTable.HEADER) + "\n");
            String[] utcs = new String[readingsPerDay];
            String[] locals = new String[readingsPerDay];
            for (int r = 0; r < readingsPerDay; r++) {
                Instant ts = T0.plus(Reading.INTERVAL.multipliedBy(r));
                utcs[r] = utc.format(ts);
                locals[r] = local.format(ts.atZone(Reading.PACIFIC));
            }
            for (int d = 0; d < detectors; d++) {
                long id = 400_000 + d;
                ids.add(id);
                for (int r = 0; r < readingsPerDay; r++) {
                    out.write(id + "," + utcs[r] + "," + locals[r] + "," + (100 + (d + r) % 300) + ","
                            + (r % 50 == 7 ? "" : "6" + (r % 10) + "." + (d % 10)) + ",,4,synthetic:seed=1\n");
                }
            }
        }
        long before = usedHeapAfterGc();
        List<DetectorWindows> windows = DetectorWindows.read(table, ids);
        long after = usedHeapAfterGc();

        long readings = (long) detectors * readingsPerDay;
        long arrays = windows.stream().mapToLong(DetectorWindows::arrayBytes).sum();
        assertThat(windows).hasSize(detectors);
        assertThat(windows.get(4_799).size()).isEqualTo(readingsPerDay - ReadingRecord.WINDOW + 1);
        assertThat(windows.get(4_799).record(0).flow()[0]).isEqualTo(100 + 4_799 % 300);
        assertThat(arrays).as("bytes of arrays per reading").isLessThanOrEqualTo(24 * readings);
        System.out.printf(
                Locale.ROOT,
                "DetectorWindows: %,d detectors x %d readings: arrays %.1f MB (%.1f B/reading), "
                        + "heap kept %.1f MB%n",
                detectors,
                readingsPerDay,
                arrays / 1e6,
                (double) arrays / readings,
                (after - before) / 1e6);
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return runtime.totalMemory() - runtime.freeMemory();
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
