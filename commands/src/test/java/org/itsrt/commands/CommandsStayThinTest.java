package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A command is an adapter: its options come from mixins and its work from a library, so its class
 * stays short. Every {@code @Command} class of the suite's sources is at most 250 lines; demo and
 * tune, the two that once held their runs' logic, at most 200.
 */
class CommandsStayThinTest {

    @Test
    void noCommandClassIsOver250LinesAndDemoAndTuneNotOver200() throws IOException {
        Map<String, Long> lines = new TreeMap<>();
        for (Path source : RepositorySources.mainJavaFiles()) {
            String text = Files.readString(source);
            if (text.contains("\n@Command(")) {
                lines.put(source.getFileName().toString(), text.lines().count());
            }
        }

        assertThat(lines).containsKeys("DemoCommand.java", "ProbeCommand.java", "BudgetCommand.java");
        assertThat(lines).allSatisfy((file, count) -> assertThat(count).as(file).isLessThanOrEqualTo(250));
        assertThat(lines.get("DemoCommand.java")).isLessThanOrEqualTo(200);
        assertThat(lines.get("TuneCommand.java")).isLessThanOrEqualTo(200);
    }
}
