package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.itsrt.pipeline.plan.PhasePlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --sweep}, {@code --step-duration} and {@code --profile}: parsed, and refused where they cannot work. */
class DemoSweepAndProfileOptionsTest {

    @Test
    void sweepAndProfileAreParsed() {
        DemoCommand demo = new DemoCommand();
        new CommandLine(demo).parseArgs("--sweep", "1000, 3000,6000", "--step-duration", "45s", "--profile");
        PhasePlan phases = demo.plan().phases();
        assertThat(phases.run()).isEqualTo(PhasePlan.Run.SWEEP);
        assertThat(phases.sweep().rates()).containsExactly(1000.0, 3000.0, 6000.0);
        assertThat(phases.sweep().stepDuration()).isEqualTo(Duration.ofSeconds(45));
        // Each step's warm-up: the default, since --warmup was not given.
        assertThat(phases.sweep().warmup()).isEqualTo(Duration.ofSeconds(20));
        assertThat(phases.profile()).isTrue();
        assertThat(new CommandLine(new DemoCommand()).parseArgs().matchedOptions())
                .isEmpty();
    }

    @Test
    void badSweepsAreRefusedBeforeAnythingStarts(@TempDir Path dir) {
        String[][] wrong = {
            {"--sweep", "1000,fast"},
            {"--sweep", "1000,,3000"},
            {"--sweep", "0,1000"},
            {"--sweep", "1000", "--quick"},
            {"--sweep", "1000", "--with-floor"},
            {"--step-duration", "30s"},
            {"--sweep", "1000", "--warmup-records", "600"},
            {"--sweep", "1000", "--step-duration", "0s"},
        };
        String[] named = {
            "--sweep (phases.sweep.rates): 'fast' is not a rate",
            "--sweep (phases.sweep.rates): '' is not a rate",
            "--sweep (phases.sweep.rates): a rate must be > 0",
            "--sweep (phases.sweep.rates) goes without --quick",
            "--sweep (phases.sweep.rates) goes without --quick and --with-floor",
            "--step-duration (phases.sweep.step_duration) goes with --sweep",
            "--sweep takes --warmup TIME",
            "--step-duration (phases.sweep.step_duration) must be > 0",
        };
        for (int i = 0; i < wrong.length; i++) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CommandLine cmd = new CommandLine(new DemoCommand());
            cmd.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
            String[] args = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(wrong[i]),
                            java.util.stream.Stream.of(
                                    "--out", dir.resolve("run" + i).toString()))
                    .toArray(String[]::new);
            assertThat(cmd.execute(args)).as(String.join(" ", wrong[i])).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .as(String.join(" ", wrong[i]))
                    .contains(named[i]);
            assertThat(dir.resolve("run" + i)).doesNotExist();
        }
    }
}
