package org.itsrt.scheduling.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.scheduling.budget.ComposeCpu;
import org.itsrt.scheduling.budget.StudyRow;
import org.itsrt.scheduling.budget.StudyRows;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The bundled override files (docker/rows/ROW.yaml) are exactly what {@code ./its budget --row ROW
 * --format compose} renders from the repository's rows, one per study row, so that the numbers a
 * Compose stack runs with and the ones the study rows say cannot drift apart.
 */
class ComposeRowFilesTest {

    private static final Path ROOT = ProjectPaths.locate().root();

    @Test
    void everyStudyRowsOverrideFileIsItsRendering() throws IOException {
        List<String> problems = new ArrayList<>();
        for (StudyRow row : studyRows()) {
            String command = "./its budget --row " + row.name() + " --format compose";
            String rerender = command + " > " + ComposeCpu.rowFile(row.name());
            Path file = ROOT.resolve(ComposeCpu.rowFile(row.name()));
            String rendered = render(row.name());
            if (!Files.isRegularFile(file)) {
                problems.add(ComposeCpu.rowFile(row.name()) + " is missing; render it: " + rerender);
            } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(rendered)) {
                problems.add(
                        ComposeCpu.rowFile(row.name()) + " differs from `" + command + "`; re-render it: " + rerender);
            }
        }
        assertThat(problems).as("override files out of step with the rows").isEmpty();
    }

    @Test
    void noOverrideFileWithoutAStudyRow() throws IOException {
        Set<String> expected =
                studyRows().stream().map(row -> row.name() + ".yaml").collect(Collectors.toSet());
        try (Stream<Path> files = Files.list(ROOT.resolve(ComposeCpu.ROW_FILES))) {
            List<String> strays = files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml") || name.endsWith(".yml"))
                    .filter(name -> !expected.contains(name))
                    .sorted()
                    .toList();
            assertThat(strays)
                    .as("files in " + ComposeCpu.ROW_FILES + " without a row in " + ProjectPaths.STUDY_ROWS
                            + " (delete them, or add their rows)")
                    .isEmpty();
        }
    }

    /** The study's rows: every row of the repository's file but Xen's defaults, which restore rather than measure. */
    private static List<StudyRow> studyRows() {
        List<StudyRow> rows = StudyRows.read(ROOT.resolve(ProjectPaths.STUDY_ROWS)).rows().stream()
                .filter(row -> !row.xenDefault())
                .toList();
        assertThat(rows).isNotEmpty();
        return rows;
    }

    private static String render(String row) {
        CommandLine cmd = BudgetCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute("--row", row, "--format", "compose");
        assertThat(code).as("rendering " + row + ": " + err).isZero();
        return out.toString();
    }
}
