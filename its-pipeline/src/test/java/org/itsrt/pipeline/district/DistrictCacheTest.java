package org.itsrt.pipeline.district;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's district generated, imported and checked once, then reused; a folder that cannot run is refused. */
class DistrictCacheTest {

    @TempDir
    Path cache;

    @Test
    void aGeneratedDistrictIsImportedCheckedAndReusedWhileItIsThere() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DistrictCache districts = new DistrictCache(cache, new PrintStream(log, true, StandardCharsets.UTF_8));
        DistrictPlan plan = DistrictPlan.builder().detectors(120).seed(5).build();

        DistrictCache.Ready ready = districts.resolve(plan);

        assertThat(ready.folder()).isEqualTo(cache.resolve("district-120-seed5-1d"));
        assertThat(ready.meta().getFileName().toString()).startsWith("d07_text_meta_");
        assertThat(ready.detectors()).isEqualTo(120);
        assertThat(CanonicalTable.read(ready.table()).stream()
                        .map(Reading::stationId)
                        .distinct()
                        .count())
                .as("every mainline detector has readings")
                .isEqualTo(120);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("generated ").contains("imported ");
        try (var left = Files.list(cache)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains("partial"));
        }

        FileTime written = Files.getLastModifiedTime(ready.table());
        log.reset();
        DistrictCache.Ready again = districts.resolve(plan);
        assertThat(again).isEqualTo(ready);
        assertThat(Files.getLastModifiedTime(again.table())).isEqualTo(written);
        assertThat(log.toString(StandardCharsets.UTF_8))
                .as("nothing made twice")
                .isEmpty();

        // The same folder given as the plan's, sized for another count, is refused naming the key.
        DistrictPlan missized =
                DistrictPlan.builder().dir(ready.folder()).detectors(150).build();
        assertThatThrownBy(() -> districts.resolve(missized))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--detectors (load.district.detectors)")
                .hasMessageContaining("has 120 mainline detectors")
                .hasMessageContaining("set it to 120");
    }

    @Test
    void aFolderWithoutOneMetadataFileIsRefusedNamingTheKey() throws Exception {
        Path empty = Files.createDirectories(cache.resolve("empty"));
        DistrictCache districts = new DistrictCache(cache, new PrintStream(new ByteArrayOutputStream()));
        assertThatThrownBy(() ->
                        districts.resolve(DistrictPlan.builder().dir(empty).build()))
                .hasMessage("load.district.dir: " + empty
                        + " must hold one station metadata file d<NN>_text_meta_<date>.txt, found 0");
        assertThatThrownBy(() -> districts.resolve(
                        DistrictPlan.builder().dir(cache.resolve("none")).build()))
                .hasMessageContaining("load.district.dir: ")
                .hasMessageContaining("is not a folder of clearinghouse files");
    }
}
