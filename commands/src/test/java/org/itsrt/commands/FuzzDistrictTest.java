package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.fuzz.RequestFault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./its fuzz --workload district} end to end, small: a generated district of 120 detectors
 * (made once into the repository's cache and reused), one of each request fault and of each hostile
 * reading kind among as many valid records, on the stack the demo starts.
 */
class FuzzDistrictTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void everyHostileRequestIsDeadLetteredAndEveryValidOneAnsweredOnce(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(
                dir.resolve("plan.yaml"), "load:\n  workload: district\n  district:\n    detectors: 120\n");
        Path run = dir.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new FuzzCommand())
                    .execute(
                            "--plan",
                            plan.toString(),
                            "--records",
                            Integer.toString(RequestFault.values().length),
                            "--model",
                            ROOT.resolve("models/lstm-flow").toString(),
                            "--out",
                            run.toString());
        } finally {
            System.setOut(oldOut);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(report).isZero();
        assertThat(report).contains("## Expectations: all held");
        List<String> kinds = Files.readAllLines(run.resolve("kinds.csv"));
        for (RequestFault fault : RequestFault.values()) {
            assertThat(kinds)
                    .as(fault.label())
                    .anyMatch(line -> line.startsWith(
                            "\"route requests\",\"" + fault.label().replace("\"", "\"\"") + "\""));
        }
        // Every row's lost, other-reason and more-than-once columns are 0, on both streams.
        for (String line : kinds.subList(1, kinds.size())) {
            assertThat(line).as(line).endsWith(",0,0,0");
        }
    }
}
