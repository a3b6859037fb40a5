package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A two-step sweep, profiled, on one broker and an in-process cluster: small and short. */
class DemoSweepTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void everyStepIsMeasuredProfiledAndReported(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new DemoCommand())
                    .execute(
                            "--sweep",
                            "30,60",
                            "--step-duration",
                            "3s",
                            "--warmup",
                            "1s",
                            "--profile",
                            "--flink",
                            "in-process",
                            "--job-arg",
                            "engine=linear",
                            "--data",
                            ROOT.resolve("data/sample/synthetic-readings.csv").toString(),
                            "--model",
                            ROOT.resolve("models/lstm-flow").toString(),
                            "--out",
                            run.toString());
        } finally {
            System.setOut(oldOut);
        }
        String console = out.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(console).isZero();
        List<String> csv = Files.readAllLines(run.resolve("sweep.csv"));
        assertThat(csv).hasSize(3);
        // 30/s and 60/s for 3 s: 90 and 180 records, every one measured, none lost.
        assertThat(csv.get(1)).startsWith("30.0,90,90,");
        assertThat(csv.get(2)).startsWith("60.0,180,180,");
        assertThat(csv.get(1)).endsWith(",0,0,0,0");
        assertThat(run.resolve("sweep.png")).isRegularFile();
        assertThat(console).contains("| 60 | 180 | 180 |");
        Path profile = run.resolve("step-02-60/profile");
        assertThat(profile.resolve("broker.jfr")).isRegularFile();
        assertThat(Files.readString(profile.resolve("profile.md")))
                .contains("| broker | ")
                .contains("| demo (producers, probe) | ")
                .contains("## broker");
    }
}
