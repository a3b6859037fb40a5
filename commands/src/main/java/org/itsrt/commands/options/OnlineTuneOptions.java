package org.itsrt.commands.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import org.itsrt.experiments.online.OnlineTune;
import org.itsrt.experiments.tune.TunePlan;
import picocli.CommandLine.Option;

/** {@code --online} and its interval: one run whose budget follows the load instead of a search. */
public final class OnlineTuneOptions {

    @Option(
            names = "--online",
            description = "instead of searching: one run in which the cgroup budget of the job's process follows the "
                    + "measured p99 and load every --interval, between --min-budget-us and --max-budget-us "
                    + "(recorded before each change, restored at the end and after a kill) -> online.md, online.csv, "
                    + "a plot of budget and p99 over time; with --load-step to measure it against a step")
    boolean online;

    @Option(
            names = "--interval",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "with --online: how often the budget is decided (default: 2s; at least 500ms)")
    Duration interval;

    public boolean given() {
        return online;
    }

    /**
     * Refuses the options of a search with {@code --online}, which runs once and searches nothing:
     * given with it they would be silently ignored.
     */
    public void refuseSearchOptions(TunePlan.Request request) {
        java.util.List<String> given = new java.util.ArrayList<>();
        if (request.strategy() != null) {
            given.add("--strategy");
        }
        if (request.seed() != null) {
            given.add("--search-seed");
        }
        if (request.maxPoints() != null) {
            given.add("--max-points");
        }
        if (request.resolutionUs() != null) {
            given.add("--resolution-us");
        }
        if (request.maxRepetitions() != null) {
            given.add("--max-repetitions");
        }
        if (!given.isEmpty()) {
            throw new IllegalArgumentException(
                    String.join(", ", given) + ": a search's, and --online runs once and searches nothing");
        }
    }

    /** The interval asked for, or the default; refused without {@code --online}. */
    public Duration interval() {
        if (!online && interval != null) {
            throw new IllegalArgumentException("--interval is for --online");
        }
        return interval != null ? interval : OnlineTune.DEFAULT_INTERVAL;
    }
}
