package org.itsrt.experiments.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;

/**
 * The first section of an experiment's report: every row whose runs measured nothing, lost
 * records or missed the SLO, named with its figures, before any table; or one line saying that
 * every run measured all its records within the SLO. A reader who stops there knows the outcome.
 */
final class WhatWentWrong {

    private WhatWentWrong() {}

    /** The section's Markdown, heading included, for runs in the order they ran. */
    static String section(ExperimentSpec.Slo slo, List<RowRun> runs) {
        Map<String, List<RowRun>> byRow = new LinkedHashMap<>();
        runs.forEach(r ->
                byRow.computeIfAbsent(r.row().label(), k -> new ArrayList<>()).add(r));
        List<String> lines = new ArrayList<>();
        byRow.forEach((label, rowRuns) -> lines.addAll(problems(label, rowRuns, slo)));
        if (runs.isEmpty()) {
            return "## What went wrong\n\n- **no run ran**\n\n";
        }
        if (lines.isEmpty()) {
            return String.format(
                    Locale.ROOT,
                    "## Outcome\n\nEvery run measured all its records and met the SLO (steady-state p99 <= %s ms,"
                            + " max <= %s ms).%n%n",
                    ExperimentReport.fmt(slo.p99Ms()),
                    ExperimentReport.fmt(slo.maxMs()));
        }
        StringBuilder md = new StringBuilder("## What went wrong\n\n");
        lines.forEach(line -> md.append("- ").append(line).append('\n'));
        return md.append('\n').toString();
    }

    private static List<String> problems(String label, List<RowRun> runs, ExperimentSpec.Slo slo) {
        List<String> lines = new ArrayList<>();
        List<RowRun> unmeasured =
                runs.stream().filter(r -> r.steady().count() == 0).toList();
        add(lines, label, runs, unmeasured, "measured nothing", "the run's log says why");
        List<RowRun> losing = runs.stream().filter(r -> r.lost() > 0).toList();
        add(
                lines,
                label,
                runs,
                losing,
                "lost records",
                String.format(
                        Locale.ROOT,
                        "%,d in all",
                        losing.stream().mapToLong(RowRun::lost).sum()));
        List<RowRun> missed = runs.stream()
                .filter(r -> r.steady().count() > 0
                        && (r.steady().p99() > slo.p99Ms() || r.steady().max() > slo.maxMs()))
                .toList();
        add(
                lines,
                label,
                runs,
                missed,
                "missed the SLO",
                String.format(
                        Locale.ROOT,
                        "steady-state p99 up to %,.1f ms (SLO %s), max up to %,.1f ms (SLO %s)",
                        missed.stream().mapToDouble(r -> r.steady().p99()).max().orElse(Double.NaN),
                        ExperimentReport.fmt(slo.p99Ms()),
                        missed.stream().mapToDouble(r -> r.steady().max()).max().orElse(Double.NaN),
                        ExperimentReport.fmt(slo.maxMs())));
        List<RowRun> failed = runs.stream()
                .filter(r -> r.steady().count() > 0 && r.exitCode() != 0)
                .toList();
        add(lines, label, runs, failed, "ended with a non-zero exit", "the run's log says why");
        return lines;
    }

    /** One line for the runs of a row that went wrong in one way; none when no run did. */
    private static void add(
            List<String> lines, String label, List<RowRun> runs, List<RowRun> wrong, String what, String detail) {
        if (!wrong.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "**%s: %s %s** (repetition %s; %s)",
                    label,
                    of(wrong.size(), runs.size()),
                    what,
                    repetitions(wrong),
                    detail));
        }
    }

    private static String of(int some, int all) {
        return all == 1 ? "its run" : some == all ? "all " + all + " runs" : some + " of " + all + " runs";
    }

    private static String repetitions(List<RowRun> runs) {
        return String.join(
                ", ", runs.stream().map(r -> Integer.toString(r.repetition())).toList());
    }
}
