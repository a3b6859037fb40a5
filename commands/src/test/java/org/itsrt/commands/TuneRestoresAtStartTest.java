package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.scheduling.linux.BudgetLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** ./its tune restores what a killed run recorded before its search applies anything. */
class TuneRestoresAtStartTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void aKilledRunsRecordIsRestoredAndSaidBeforeTheSearch(@TempDir Path dir) throws Exception {
        // A record as a killed JVM leaves it: its owner has exited, and so has the process it reserved.
        Process owner = new ProcessBuilder("true").start();
        Process reserved = new ProcessBuilder("true").start();
        owner.waitFor();
        reserved.waitFor();
        Path state = Files.createDirectories(dir.resolve("state"));
        Path record = state.resolve("deadline-" + owner.pid() + "-1.json");
        Files.writeString(
                record,
                """
                {"format": 1, "kind": "deadline",
                 "owner": {"pid": %d, "startTime": 1, "command": "its tune"},
                 "created": "2026-01-01T00:00:00Z", "description": "SCHED_DEADLINE on process %d",
                 "deadline": {"pid": %d, "pidStartTime": 1, "runtimeNs": 1000000, "deadlineNs": 10000000,
                              "periodNs": 10000000, "threads": []}}
                """
                        .formatted(owner.pid(), reserved.pid(), reserved.pid()));
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand((point, budget, period, rep) -> {
            throw new IllegalStateException("stop after the first point");
        }));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        String property = System.getProperty(BudgetLedger.DIR_PROPERTY);
        System.setProperty(BudgetLedger.DIR_PROPERTY, state.toString());
        try {
            int exit = cli.execute(
                    ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                    "--out",
                    dir.resolve("tune").toString());

            assertThat(exit).as("the stand-in's run fails: %s", err).isEqualTo(1);
        } finally {
            if (property == null) {
                System.clearProperty(BudgetLedger.DIR_PROPERTY);
            } else {
                System.setProperty(BudgetLedger.DIR_PROPERTY, property);
            }
        }
        assertThat(err.toString())
                .contains("its-tune: restored what killed process " + owner.pid() + " left: process " + reserved.pid()
                        + " has exited: its threads' SCHED_DEADLINE 1000000/10000000/10000000 ns went with it, "
                        + "nothing to restore");
        assertThat(record).doesNotExist();
    }
}
