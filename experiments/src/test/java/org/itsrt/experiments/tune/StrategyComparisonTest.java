package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.experiments.tune.TuneResult.Status;
import org.junit.jupiter.api.Test;

/**
 * Bisection per period against annealing over (period, budget), on the {@link SyntheticSurface}
 * over 200 seeds: how many points each measures, and how often each locates each period's
 * boundary, at the same resolution (1% of the period). Prints the table docs/experiments.md
 * section 7 quotes, and writes it to {@code target/strategy-comparison.md}. It asserts only what
 * must hold whatever the numbers: no point twice, the point budget kept, brackets that are brackets.
 */
class StrategyComparisonTest {

    private static final int SEEDS = 200;
    private static final double RIGHT_WITHIN_STEPS = 2;
    private static final BudgetSearch.Listener QUIET = new BudgetSearch.Listener() {};

    /** What one search over one seed's surface found. */
    private record Outcome(
            int points,
            int runs,
            boolean[] located,
            boolean[] right,
            double errorSteps,
            boolean chosenRight,
            int pointsToChosen) {}

    /** One strategy over every seed. */
    private record Tally(String strategy, String maxPoints, List<Outcome> outcomes) {}

    @Test
    void bisectionAndAnnealingOnTheSyntheticSurface() throws IOException {
        List<SearchRange> ranges = SyntheticSurface.ranges();
        int bisectionMost = SearchStrategy.BISECTION.maxPoints(ranges);
        int lattice = ranges.stream().mapToInt(r -> r.topStep() + 1).sum();
        List<Tally> tallies = new ArrayList<>();
        tallies.add(tally("bisection", "-", seed -> SearchStrategy.BISECTION));
        for (int most : List.of(bisectionMost, 2 * bisectionMost, lattice)) {
            tallies.add(tally(
                    "annealing",
                    most + (most == bisectionMost ? " (default)" : most == lattice ? " (every budget)" : ""),
                    seed -> SearchStrategy.annealing(seed, most)));
        }
        String table = table(tallies, ranges);
        System.out.println(table);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "strategy-comparison.md"), table);
    }

    private Tally tally(String name, String maxPoints, java.util.function.LongFunction<SearchStrategy> strategy) {
        List<Outcome> outcomes = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            SearchStrategy chosen = strategy.apply(seed);
            BudgetSearch.Settings settings = SyntheticSurface.settings(chosen);
            TuneResult result =
                    TuneSearch.of(settings, new SyntheticSurface(seed), QUIET).run();
            assertThat(result.stoppedEarly()).as(result.failure()).isFalse();
            assertThat(result.points().size()).isLessThanOrEqualTo(chosen.maxPoints(settings.ranges()));
            assertThat(result.points())
                    .extracting(p -> p.periodUs() + "/" + p.budgetUs())
                    .as("never a point twice")
                    .doesNotHaveDuplicates();
            outcomes.add(judge(settings.ranges(), result));
        }
        return new Tally(name, maxPoints, outcomes);
    }

    /** Per period: located (bracket within the resolution) and right (within a step of the true boundary). */
    private static Outcome judge(List<SearchRange> ranges, TuneResult result) {
        boolean[] located = new boolean[ranges.size()];
        boolean[] right = new boolean[ranges.size()];
        double error = 0;
        int errors = 0;
        for (int i = 0; i < ranges.size(); i++) {
            SearchRange range = ranges.get(i);
            PeriodOutcome p = result.periods().get(i);
            assertThat(p.range()).isEqualTo(range);
            if (p.status() == Status.FOUND) {
                assertThat(p.smallestPassingUs() - p.largestFailingUs())
                        .isPositive()
                        .isLessThanOrEqualTo(range.resolutionUs());
            }
            located[i] = p.found();
            right[i] = located[i] && rightBoundary(p);
            if (located[i]) {
                error += errorSteps(p);
                errors++;
            }
        }
        int runs = result.points().stream().mapToInt(p -> p.runs().size()).sum();
        return new Outcome(
                result.points().size(),
                runs,
                located,
                right,
                errors == 0 ? Double.NaN : error / errors,
                chosenRight(result),
                pointsUntilChosenRight(ranges, result));
    }

    /**
     * Within two resolution steps of the boundary: one step is what a bracket within the resolution
     * promises, and a second keeps the lattice's alignment from deciding (annealing's budgets lie on
     * a lattice, bisection's midpoints anywhere, and a lattice budget just above the boundary fails
     * about half the time).
     */
    private static boolean rightBoundary(PeriodOutcome p) {
        return errorSteps(p) <= RIGHT_WITHIN_STEPS;
    }

    /** How far the smallest passing budget lies from the boundary, in resolution steps. */
    private static double errorSteps(PeriodOutcome p) {
        double boundary = SyntheticSurface.boundaryUs(p.range().periodUs());
        return Math.abs(p.smallestPassingUs() - boundary) / p.range().resolutionUs();
    }

    /** The chosen point is located and within two steps (2% of a CPU) of the lowest share the surface allows. */
    private static boolean chosenRight(TuneResult result) {
        double lowest = SyntheticSurface.PERIODS_US.stream()
                .mapToDouble(p -> SyntheticSurface.boundaryUs(p) / p)
                .min()
                .orElseThrow();
        return result.best()
                .filter(PeriodOutcome::found)
                .filter(b -> Math.abs(b.utilization() - lowest) <= RIGHT_WITHIN_STEPS / 100)
                .isPresent();
    }

    /** The first number of points after which the frontier's chosen point was right (-1: never). */
    private static int pointsUntilChosenRight(List<SearchRange> ranges, TuneResult result) {
        List<TriedPoint> points = result.points();
        for (int n = 1; n <= points.size(); n++) {
            TuneResult prefix = new TuneResult(
                    points.subList(0, n), AnnealingSearch.frontier(ranges, points.subList(0, n), Status.OPEN), null);
            if (chosenRight(prefix)) {
                return n;
            }
        }
        return -1;
    }

    private static String table(List<Tally> tallies, List<SearchRange> ranges) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%d seeds; %d periods (%s us), budgets 5..100%% of each at 1%% resolution; 2 runs a point, 4 when "
                        + "they disagree%n%n",
                SEEDS,
                ranges.size(),
                String.join(
                        ", ",
                        ranges.stream().map(r -> Long.toString(r.periodUs())).toList())));
        t.append("| strategy | max points | points: mean (min-max) | runs: mean | periods located, of ")
                .append(ranges.size())
                .append(" | boundaries right, of ")
                .append(ranges.size())
                .append(
                        " | boundary error, steps: mean | whole frontier right | chosen point right | points until the chosen point was right: "
                                + "mean (max) |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Tally tally : tallies) {
            List<Outcome> o = tally.outcomes();
            int[] toChosen = o.stream()
                    .mapToInt(Outcome::pointsToChosen)
                    .filter(n -> n > 0)
                    .toArray();
            t.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.1f (%d-%d) | %.1f | %.2f | %.2f | %.2f | %s | %s | %s |%n",
                    tally.strategy(),
                    tally.maxPoints(),
                    o.stream().mapToInt(Outcome::points).average().orElse(0),
                    o.stream().mapToInt(Outcome::points).min().orElse(0),
                    o.stream().mapToInt(Outcome::points).max().orElse(0),
                    o.stream().mapToInt(Outcome::runs).average().orElse(0),
                    o.stream().mapToInt(x -> count(x.located())).average().orElse(0),
                    o.stream().mapToInt(x -> count(x.right())).average().orElse(0),
                    o.stream()
                            .mapToDouble(Outcome::errorSteps)
                            .filter(e -> !Double.isNaN(e))
                            .average()
                            .orElse(Double.NaN),
                    percent(o.stream()
                            .filter(x -> count(x.right()) == ranges.size())
                            .count()),
                    percent(o.stream().filter(Outcome::chosenRight).count()),
                    toChosen.length == 0
                            ? "-"
                            : String.format(
                                    Locale.ROOT,
                                    "%.1f (%d)",
                                    IntStream.of(toChosen).average().orElse(0),
                                    IntStream.of(toChosen).max().orElse(0))));
        }
        t.append(
                "\nEach period's boundary right (located, and within two steps of the boundary a point passes at more often than not), share of "
                        + "seeds:\n\n| strategy | max points |");
        ranges.forEach(r -> t.append(' ').append(r.periodUs()).append(" us |"));
        t.append("\n|---|---|").append("---|".repeat(ranges.size())).append('\n');
        for (Tally tally : tallies) {
            t.append("| ")
                    .append(tally.strategy())
                    .append(" | ")
                    .append(tally.maxPoints())
                    .append(" |");
            for (int i = 0; i < ranges.size(); i++) {
                int period = i;
                t.append(' ')
                        .append(percent(tally.outcomes().stream()
                                .filter(x -> x.right()[period])
                                .count()))
                        .append(" |");
            }
            t.append('\n');
        }
        t.append("\nBoundaries a point passes at more often than not (share of a CPU):");
        ranges.forEach(r -> t.append(String.format(
                Locale.ROOT,
                " %d us %.2f%%;",
                r.periodUs(),
                100 * SyntheticSurface.boundaryUs(r.periodUs()) / r.periodUs())));
        return t.append('\n').toString();
    }

    private static int count(boolean[] flags) {
        int n = 0;
        for (boolean f : flags) {
            n += f ? 1 : 0;
        }
        return n;
    }

    private static String percent(long seeds) {
        return String.format(Locale.ROOT, "%.0f%%", 100.0 * seeds / SEEDS);
    }
}
