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
        if (!unmeasured.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "**%s: %s measured nothing** (repetition %s; the run's log says why)",
                    label,
                    of(unmeasured.size(), runs.size()),
                    repetitions(unmeasured)));
        }
        List<RowRun> losing = runs.stream().filter(r -> r.lost() > 0).toList();
        if (!losing.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "**%s: %s lost records** (%,d in all, repetition %s)",
                    label,
                    of(losing.size(), runs.size()),
                    losing.stream().mapToLong(RowRun::lost).sum(),
                    repetitions(losing)));
        }
        List<RowRun> missed = runs.stream()
                .filter(r -> r.steady().count() > 0
                        && (r.steady().p99() > slo.p99Ms() || r.steady().max() > slo.maxMs()))
                .toList();
        if (!missed.isEmpty()) {
            double worstP99 =
                    missed.stream().mapToDouble(r -> r.steady().p99()).max().orElseThrow();
            double worstMax =
                    missed.stream().mapToDouble(r -> r.steady().max()).max().orElseThrow();
            lines.add(String.format(
                    Locale.ROOT,
                    "**%s: %s missed the SLO**: steady-state p99 up to %,.1f ms (SLO %s), max up to %,.1f ms (SLO %s)",
                    label,
                    of(missed.size(), runs.size()),
                    worstP99,
                    ExperimentReport.fmt(slo.p99Ms()),
                    worstMax,
                    ExperimentReport.fmt(slo.maxMs())));
        }
        List<RowRun> failed = runs.stream()
                .filter(r -> r.steady().count() > 0 && r.exitCode() != 0)
                .toList();
        if (!failed.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "**%s: %s ended with a non-zero exit** (repetition %s; the run's log says why)",
                    label,
                    of(failed.size(), runs.size()),
                    repetitions(failed)));
        }
        return lines;
    }

    private static String of(int some, int all) {
        return all == 1 ? "its run" : some == all ? "all " + all + " runs" : some + " of " + all + " runs";
    }

    private static String repetitions(List<RowRun> runs) {
        return String.join(
                ", ", runs.stream().map(r -> Integer.toString(r.repetition())).toList());
    }
}
