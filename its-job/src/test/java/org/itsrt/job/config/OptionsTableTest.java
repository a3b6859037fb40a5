package org.itsrt.job.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The options table of docs/job.md is the one {@link JobOptions} writes, so that the two cannot drift apart. */
class OptionsTableTest {

    private static final Path JOB_MD =
            Path.of(System.getProperty("itsrt.repo.root", "..")).resolve("docs/job.md");
    static final String BEGIN = "<!-- options table: written from org.itsrt.job.config.JobOptions.markdownTable(), "
            + "checked by OptionsTableTest -->\n";
    static final String END = "<!-- end of options table -->";

    @Test
    void docsJobMdHoldsTheGeneratedTable() throws Exception {
        String doc = Files.readString(JOB_MD);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("%s has the line %s", JOB_MD, BEGIN.trim()).isNotNegative();
        assertThat(end).as("%s has the line %s after the table", JOB_MD, END).isGreaterThan(begin);
        assertThat(doc.substring(begin + BEGIN.length(), end))
                .as("the options table of %s; put in the text expected here", JOB_MD)
                .isEqualTo(JobOptions.markdownTable());
    }

    @Test
    void everyOptionIsInTheTableAndTheHelp() {
        for (JobOption<?> option : JobOptions.all()) {
            assertThat(JobOptions.markdownTable())
                    .contains("| `" + option.synopsis().replace("|", "\\|") + "` |");
            assertThat(JobSettings.usage()).contains("  " + option.synopsis() + " ");
        }
        assertThat(JobOptions.all()).hasSize(32);
    }
}
