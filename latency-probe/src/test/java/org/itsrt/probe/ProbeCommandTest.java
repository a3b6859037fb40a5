package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The probe's options as the shared command-line types read them, without a broker. */
class ProbeCommandTest {

    @Test
    void durationsAreReadInTheSharedSyntaxAndReportedCompactly() {
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.parseArgs(
                "--duration",
                "1m30s",
                "--idle-timeout",
                "0.5s",
                "--window",
                "250ms",
                "--steady-after",
                "PT2M",
                "--progress",
                "0",
                "--faults",
                "chaos/faults.csv");
        ProbeOptions options = ((ProbeCommand) cmd.getCommand()).options();

        assertThat(options.topic()).isEqualTo(Topics.ADVICE);
        assertThat(options.limits().durationNs()).isEqualTo(90_000_000_000L);
        assertThat(options.limits().idleNs()).isEqualTo(500_000_000L);
        assertThat(options.settings().windowNs()).isEqualTo(250_000_000L);
        assertThat(options.settings().steadyAfterNs()).isEqualTo(120_000_000_000L);
        assertThat(options.progressEveryNs()).isZero();
        assertThat(options.faultsFile()).isEqualTo(java.nio.file.Path.of("chaos", "faults.csv"));
        assertThat(options.stopDescription().get(ConsumeLoop.StopReason.DURATION))
                .isEqualTo("--duration 1m30s");
        assertThat(options.stopDescription().get(ConsumeLoop.StopReason.IDLE)).startsWith("--idle-timeout 500ms ");
    }

    @Test
    void theOldWarmupOptionIsNoProbeOption() {
        // The producers' warm-up phase; the probe's cut is --steady-after. Refused before anything runs.
        CommandLine cmd = ProbeCommand.commandLine();
        assertThatThrownBy(() -> cmd.parseArgs("--warmup", "30s"))
                .isInstanceOf(CommandLine.UnmatchedArgumentException.class)
                .hasMessageContaining("'--warmup'");
    }

    @Test
    void anIllegalTopicNameIsRefusedBeforeAnyClientStarts() {
        for (String topic : new String[] {"its advice", "..", "a/b", "t".repeat(250)}) {
            CommandLine cmd = ProbeCommand.commandLine();
            cmd.parseArgs("--topic", topic);

            assertThatThrownBy(() -> ((ProbeCommand) cmd.getCommand()).options())
                    .as(topic)
                    .isInstanceOf(CommandLine.ParameterException.class)
                    .hasMessageStartingWith("--topic: Topic name is invalid: ")
                    .hasMessageContaining("'" + topic + "'");
        }
    }

    @Test
    void aBadDurationIsRefusedNamingTheOption() {
        StringWriter err = new StringWriter();
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.setErr(new PrintWriter(err, true));

        int exit = cmd.execute("--window", "1 sec");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option '--window': '1 sec' is not a duration; " + "write e.g. 500ms, 30s");
    }

    @Test
    void theDistrictWorkloadIsChosenWithOneOption() {
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.parseArgs("--workload", "district", "--expect", "5000", "--expect-requests", "300");
        ProbeOptions options = ((ProbeCommand) cmd.getCommand()).options();

        assertThat(options.workload()).isEqualTo(Workload.DISTRICT);
        assertThat(options.topic()).isNull();
        assertThat(options.topics()).containsExactly(Topics.PREDICTIONS, Topics.ROUTES, Topics.DEAD_LETTERS);
        assertThat(options.expected()).isEqualTo(5000);
        assertThat(options.expectedRequests()).isEqualTo(300);
    }

    @Test
    void withoutTheOptionTheStudyIsMeasured() {
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.parseArgs();
        ProbeOptions options = ((ProbeCommand) cmd.getCommand()).options();

        assertThat(options.workload()).isEqualTo(Workload.STUDY);
        assertThat(options.topics()).containsExactly(Topics.ADVICE);
    }

    @Test
    void optionsOfTheOtherWorkloadAreRefusedNamingThem() {
        assertThatThrownBy(() -> ProbeCommand.commandLine().parseArgs("--workload", "city"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("Invalid value for option '--workload': unknown workload 'city', expected one of study, "
                        + "district");
        String[][] cases = {
            {"--workload", "district", "--topic", "its.advice"},
            {"--expect-requests", "10"},
            {"--workload", "district", "--expect-requests", "-1"}
        };
        String[] messages = {
            "--topic is the study's topic; --workload district reads its.predictions, its.routes and "
                    + "its.dead-letters",
            "--expect-requests counts route requests, which only --workload district measures",
            "--expect-requests must be >= 0, got -1"
        };
        for (int i = 0; i < cases.length; i++) {
            CommandLine cmd = ProbeCommand.commandLine();
            cmd.parseArgs(cases[i]);
            assertThatThrownBy(() -> ((ProbeCommand) cmd.getCommand()).options())
                    .as(String.join(" ", cases[i]))
                    .isInstanceOf(CommandLine.ParameterException.class)
                    .hasMessage(messages[i]);
        }
    }
}
