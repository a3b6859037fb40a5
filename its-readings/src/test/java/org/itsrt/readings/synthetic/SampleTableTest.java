package org.itsrt.readings.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.itsrt.readings.CanonicalTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed demo table is exactly what its command line regenerates. */
class SampleTableTest {

    @Test
    void theSampleIsSeed42FromMarch5ForSevenDays(@TempDir Path dir) throws IOException {
        String root = System.getProperty("itsrt.repo.root");
        assumeTrue(root != null, "system property itsrt.repo.root is not set; skipped");
        Path sample = Path.of(root, "data/sample/synthetic-readings.csv");

        Path regenerated = dir.resolve("synthetic-readings.csv");
        CanonicalTable.write(regenerated, new SyntheticGenerator(42).generate(LocalDate.of(2018, 3, 5), 7));

        assertThat(sample).exists();
        assertThat(Files.readAllBytes(sample))
                .as("data/sample/synthetic-readings.csv differs from: its generate --seed 42 --start 2018-03-05 "
                        + "--days 7; regenerate it")
                .isEqualTo(Files.readAllBytes(regenerated));
    }
}
