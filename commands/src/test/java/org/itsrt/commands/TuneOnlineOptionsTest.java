package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ./its tune --online}: what it will do, and what it refuses before anything starts. */
class TuneOnlineOptionsTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String BASE =
            ROOT.resolve("experiments/tune-cgroup.yaml").toString();

    record Outcome(int exit, String out, String err) {}

    private static Outcome tune(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--print-plan");
        int exit = cli.execute(all.toArray(String[]::new));
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void thePlanSaysWhatTheBudgetFollowsBetweenWhichEnds() {
        Outcome outcome = tune(BASE, "--online", "--interval", "3s", "--load-step", "60s,2m,3", "--slo-p99", "40");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains("tune tune-cgroup --online: one run; every 3s the cgroup budget")
                .contains("(2 CPU(s)) follows p99 <= 40 ms between 6,250 and 100,000 us every 100,000 us")
                .contains("load: the rate x3 from 1m for 2m");
    }

    @Test
    void whatAnOnlineBudgetCannotFollowIsRefusedInOneLine() {
        Outcome deadline = tune(ROOT.resolve("experiments/linux-deadline.yaml").toString(), "--online");
        assertThat(deadline.exit()).isEqualTo(2);
        assertThat(deadline.err())
                .contains("backend linux-deadline: --online changes a cgroup quota while the job runs; it takes "
                        + "linux-cgroup")
                .doesNotContain("Exception");

        Outcome periods = tune(BASE, "--online", "--period-us", "100000,20000");
        assertThat(periods.exit()).isEqualTo(2);
        assertThat(periods.err())
                .contains("--period-us: --online follows the budget of one period, got [100000, 20000]");

        Outcome fast = tune(BASE, "--online", "--interval", "100ms");
        assertThat(fast.exit()).isEqualTo(2);
        assertThat(fast.err()).contains("its-tune: --interval must be at least 500ms, got 100ms");

        Outcome alone = tune(BASE, "--interval", "5s");
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("its-tune: --interval is for --online");

        Outcome search = tune(BASE, "--online", "--strategy", "annealing", "--max-points", "5");
        assertThat(search.exit()).isEqualTo(2);
        assertThat(search.err())
                .contains(
                        "its-tune: --strategy, --max-points: a search's, and --online runs once and searches nothing");

        Outcome step = tune(BASE, "--online", "--load-step", "60s,2m");
        assertThat(step.exit()).isEqualTo(2);
        assertThat(step.err()).contains("--load-step").contains("expected AT,LENGTH,FACTOR");
    }
}
