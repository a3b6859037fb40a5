package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationCacheTest {

    @TempDir
    Path dir;

    static final String BOOT_A = "21868008-92ba-414d-b248-8adf92a3706b";
    static final String BOOT_B = "0f5b2a8e-1111-4c3a-9d11-35e0e1f2a3b4";

    static CalibrationCache.Entry entry(String boot) {
        return new CalibrationCache.Entry(
                boot,
                "tsc-rdtscp",
                new TscCalibration.Result(2_445_404_120L, 24_541_790_679_404L, 10_035_656_493_784L, 500),
                "2025-01-02T03:04:05Z");
    }

    @Test
    void jsonRoundTrip() {
        CalibrationCache.Entry e = entry(BOOT_A);
        String json = CalibrationCache.toJson(e);
        assertThat(json).startsWith("{\"v\":1,").contains("\"boot_id\":\"" + BOOT_A + "\"");
        assertThat(CalibrationCache.parse(json)).isEqualTo(e);
        // field order and white space do not matter
        String reordered = "{ \"frequency_hz\" : 2445404120, \"counter\":\"tsc-rdtscp\", \"v\": 1,\n"
                + " \"anchor_raw_ns\":10035656493784, \"anchor_ticks\":24541790679404, \"calibration_ms\":500,"
                + " \"boot_id\":\"" + BOOT_A + "\", \"written_at\":\"2025-01-02T03:04:05Z\" }";
        assertThat(CalibrationCache.parse(reordered)).isEqualTo(e);
    }

    @Test
    void fileRoundTripIsAtomicAndReadableByOthers() throws IOException {
        Path file = dir.resolve("sub/cal.json");
        CalibrationCache.write(file, entry(BOOT_A));
        CalibrationCache.write(file, entry(BOOT_B));
        assertThat(CalibrationCache.read(file)).isEqualTo(entry(BOOT_B));
        // no temporary files left next to it
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-r--r--");
    }

    @Test
    void malformedContentIsRejected() {
        assertThatThrownBy(() -> CalibrationCache.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CalibrationCache.parse("{\"v\":2}")).isInstanceOf(IllegalArgumentException.class);
        String noFrequency = CalibrationCache.toJson(entry(BOOT_A)).replace("\"frequency_hz\":2445404120,", "");
        assertThatThrownBy(() -> CalibrationCache.parse(noFrequency)).hasMessageContaining("frequency_hz");
        String zero = CalibrationCache.toJson(entry(BOOT_A)).replace("2445404120", "0");
        assertThatThrownBy(() -> CalibrationCache.parse(zero)).hasMessageContaining("positive");
        String truncated = CalibrationCache.toJson(entry(BOOT_A)).substring(0, 60);
        assertThatThrownBy(() -> CalibrationCache.parse(truncated)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bootId() throws IOException {
        Path f = dir.resolve("boot_id");
        Files.writeString(f, BOOT_A + "\n", StandardCharsets.US_ASCII);
        assertThat(CalibrationCache.bootId(f)).isEqualTo(BOOT_A);
        assertThat(CalibrationCache.bootId(dir.resolve("absent"))).isNull();
    }
}
