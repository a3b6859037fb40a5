package org.itsrt.experiments.tune;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.experiments.tune.TuneResult.Status;

/**
 * Simulated annealing over (period, budget) together, as iTune searches a configuration space,
 * for the lowest share of a CPU that meets the SLO; per period it keeps the smallest budget that
 * passed and the largest that failed below it, so it also yields a frontier.
 *
 * <ul>
 *   <li><b>State</b>: one of the settings' periods, ordered by length, and a budget on that
 *       period's lattice ({@link SearchRange#latticeBudget}: the lower bound and every resolution
 *       step above it), the same resolution a bisection ends at.
 *   <li><b>Energy</b>: the point's share of a CPU (budget / period) if it passes; otherwise the
 *       share plus {@link #FAIL_PENALTY} plus how far its worst run missed the SLO, so that any
 *       passing point beats any failing one, and a failing point gets worse as its budget shrinks,
 *       which leads the walk back towards passing budgets.
 *   <li><b>Neighbours</b>: the budget moves up or down by up to half the range while hot, one step
 *       when cold; or, with probability {@link #PERIOD_MOVE}, the period moves to the next shorter or
 *       longer one at the same share (the share is what the energy compares).
 *   <li><b>Acceptance</b>: Metropolis; the temperature falls geometrically by one factor per point
 *       measured, from {@link #START_TEMPERATURE} to {@link #END_TEMPERATURE} over {@code maxPoints}.
 * </ul>
 *
 * <p>Each point is several whole-pipeline runs, so points are precious: a point is measured at most
 * once and its verdict memoized, and the search ends when {@code maxPoints} are measured, when
 * every point's verdict is known (every period's bracket is within the resolution), or after
 * {@link #IDLE_PROPOSALS} proposals in a row that needed no new point (frozen where it is).
 *
 * <p>Assumption, stated: within a period, latency does not improve as the budget shrinks
 * (monotonicity in the budget, as the bisection's answer assumes too). The search uses it only to
 * skip points whose verdict it implies: a budget above one that passed passes, one below a budget
 * that failed fails. Those points are walked through without a run, at the energy the assumption
 * gives them (a failing one at the miss of the failure above it, a lower bound). Where runs
 * contradict it (a pass below a fail, from noise), nothing between them is implied and those
 * points are measured. Across periods nothing is assumed.
 */
public final class AnnealingSearch implements TuneSearch {

    /** Added to a failing point's share: a whole CPU, more than any share a passing point can have. */
    static final double FAIL_PENALTY = 1.0;
    /** The most a run's miss counts (a lost record, or a p99 many times the SLO). */
    static final double MAX_MISS = 4.0;
    /** Hot enough to accept a point a tenth of a CPU worse with probability 1/e. */
    static final double START_TEMPERATURE = 0.1;
    /** Cold enough that a point one 1% step worse is accepted with probability 1/e. */
    static final double END_TEMPERATURE = 0.01;
    /** How often a neighbour moves the period rather than the budget. */
    static final double PERIOD_MOVE = 0.3;
    /** Proposals in a row that needed no new point after which the walk is taken as frozen. */
    static final int IDLE_PROPOSALS = 10_000;

    private final BudgetSearch.Settings settings;
    private final PointTrials trials;
    /** The periods' ranges, shortest period first: neighbouring periods are adjacent here. */
    private final List<SearchRange> byPeriod;
    /** Per period (as in {@link #byPeriod}): lattice step to the point measured there and its energy. */
    private final List<Map<Integer, Measured>> measured = new ArrayList<>();

    /** Per period: the lowest step that passed (past the top: none), and the highest that failed (-1: none). */
    private final int[] lowestPass;

    private final int[] highestFail;
    private final Random random;
    private boolean everyVerdictKnown;

    private record State(int period, int step) {}

    private record Measured(TriedPoint point, double energy) {}

    public AnnealingSearch(BudgetSearch.Settings settings, PointEvaluator evaluator, BudgetSearch.Listener listener) {
        if (settings.strategy().kind() != SearchStrategy.Kind.ANNEALING) {
            throw new IllegalArgumentException("not an annealing: " + settings.strategy());
        }
        this.settings = settings;
        this.trials = new PointTrials(settings, evaluator, listener);
        this.byPeriod = settings.ranges().stream()
                .sorted(Comparator.comparingLong(SearchRange::periodUs))
                .toList();
        byPeriod.forEach(r -> measured.add(new HashMap<>()));
        this.lowestPass = byPeriod.stream().mapToInt(r -> r.topStep() + 1).toArray();
        this.highestFail = new int[byPeriod.size()];
        java.util.Arrays.fill(highestFail, -1);
        this.random = new Random(settings.strategy().seed());
    }

    @Override
    public TuneResult run() {
        String failure = null;
        try {
            anneal();
        } catch (SearchStopped stopped) {
            failure = stopped.getMessage();
        }
        boolean interrupted = trials.interrupted();
        Status unfinished = failure == null ? Status.OPEN : interrupted ? Status.INTERRUPTED : Status.STOPPED;
        List<TriedPoint> points = trials.points();
        return new TuneResult(
                points,
                frontier(settings.ranges(), points, unfinished),
                interrupted ? null : failure,
                interrupted ? failure : null);
    }

    @Override
    public TuneResult interrupt() {
        PointTrials.Snapshot sofar = trials.interrupt();
        return new TuneResult(
                sofar.points(),
                frontier(settings.ranges(), sofar.points(), Status.INTERRUPTED),
                null,
                sofar.interruption());
    }

    private void anneal() throws SearchStopped {
        int maxPoints = settings.strategy().maxPoints();
        // The middle period's upper bound: the budget most likely to pass, as a bisection starts.
        int middle = byPeriod.size() / 2;
        State current = new State(middle, byPeriod.get(middle).topStep());
        double currentEnergy = energy(current);
        double temperature = START_TEMPERATURE;
        double cooling = Math.pow(END_TEMPERATURE / START_TEMPERATURE, 1.0 / maxPoints);
        int idle = 0;
        while (trials.count() < maxPoints && !everyVerdictKnown && idle < IDLE_PROPOSALS) {
            State next = neighbour(current, temperature);
            boolean measures = !known(next);
            double nextEnergy = energy(next);
            if (measures) {
                temperature *= cooling;
                idle = 0;
            } else {
                idle++;
            }
            double rise = nextEnergy - currentEnergy;
            if (rise <= 0 || random.nextDouble() < Math.exp(-rise / temperature)) {
                current = next;
                currentEnergy = nextEnergy;
            }
        }
    }

    private State neighbour(State from, double temperature) {
        SearchRange range = byPeriod.get(from.period());
        if (byPeriod.size() > 1 && random.nextDouble() < PERIOD_MOVE) {
            int to = reflect(from.period() + (random.nextBoolean() ? 1 : -1), from.period(), byPeriod.size() - 1);
            SearchRange target = byPeriod.get(to);
            double share = (double) range.latticeBudget(from.step()) / range.periodUs();
            return new State(to, target.stepAtOrAbove(share * target.periodUs()));
        }
        double heat = Math.min(1, temperature / START_TEMPERATURE);
        int reach = Math.max(1, (int) Math.round(range.topStep() * heat / 2));
        int delta = 1 + random.nextInt(reach);
        return new State(
                from.period(),
                reflect(from.step() + (random.nextBoolean() ? delta : -delta), from.step(), range.topStep()));
    }

    /** {@code to}, mirrored at {@code from} when it leaves 0..{@code last}, and kept within it. */
    private static int reflect(int to, int from, int last) {
        int inside = to < 0 || to > last ? from - (to - from) : to;
        return Math.max(0, Math.min(last, inside));
    }

    /** Whether a state's verdict is measured or implied (monotonicity in the budget, above). */
    private boolean known(State state) {
        return measured.get(state.period()).containsKey(state.step()) || implied(state) != null;
    }

    /** The verdict monotonicity implies at an unmeasured state (true: passes), or null where it implies none. */
    private Boolean implied(State state) {
        int step = state.step();
        int pass = lowestPass[state.period()];
        int fail = highestFail[state.period()];
        if (step >= pass && step > fail) {
            return true;
        }
        if (step <= fail && step < pass) {
            return false;
        }
        return null;
    }

    /** The state's energy: memoized, implied, or measured now (the one place a point is measured). */
    private double energy(State state) throws SearchStopped {
        SearchRange range = byPeriod.get(state.period());
        double share = (double) range.latticeBudget(state.step()) / range.periodUs();
        Map<Integer, Measured> here = measured.get(state.period());
        Measured memo = here.get(state.step());
        if (memo != null) {
            return memo.energy();
        }
        Boolean passes = implied(state);
        if (passes != null) {
            return passes
                    ? share
                    : share + FAIL_PENALTY + miss(nearestFailureAbove(state).point());
        }
        int pointsAfter = settings.strategy().maxPoints() - trials.count() - 1;
        TriedPoint point = trials.tryPoint(range.periodUs(), range.latticeBudget(state.step()), pointsAfter);
        double energy = point.verdict().passed() ? share : share + FAIL_PENALTY + miss(point);
        here.put(state.step(), new Measured(point, energy));
        if (point.verdict().passed()) {
            lowestPass[state.period()] = Math.min(lowestPass[state.period()], state.step());
        } else {
            highestFail[state.period()] = Math.max(highestFail[state.period()], state.step());
        }
        everyVerdictKnown = everyVerdictKnown();
        return energy;
    }

    private Measured nearestFailureAbove(State state) {
        return measured.get(state.period()).entrySet().stream()
                .filter(e -> e.getKey() >= state.step()
                        && !e.getValue().point().verdict().passed())
                .min(Map.Entry.comparingByKey())
                .orElseThrow()
                .getValue();
    }

    private boolean everyVerdictKnown() {
        for (int period = 0; period < byPeriod.size(); period++) {
            for (int step = 0; step <= byPeriod.get(period).topStep(); step++) {
                if (!known(new State(period, step))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** How far a failing point's worst run missed the SLO, as a fraction of it (0: at the bound). */
    private double miss(TriedPoint point) {
        double worst = 0;
        for (TriedPoint.Run run : point.measuredRuns()) {
            RowRun r = run.result();
            double over =
                    Math.max(r.steady().p99() / settings.sloP99Ms(), r.steady().max() / settings.sloMaxMs()) - 1;
            worst = Math.max(worst, r.lost() > 0 || Double.isNaN(over) ? MAX_MISS : Math.min(MAX_MISS, over));
        }
        return worst;
    }

    /**
     * Per period (in the settings' order), the smallest budget that passed and the largest that
     * failed below it, from the points measured: found where they are a resolution step apart.
     *
     * @param unfinished the status of a period whose bracket is not closed: open when the search
     *                   ended by itself, else stopped or interrupted
     */
    static List<PeriodOutcome> frontier(List<SearchRange> ranges, List<TriedPoint> points, Status unfinished) {
        List<PeriodOutcome> outcomes = new ArrayList<>();
        for (SearchRange range : ranges) {
            List<TriedPoint> here = points.stream()
                    .filter(p -> p.periodUs() == range.periodUs())
                    .filter(p -> p.verdict() == Verdict.PASS
                            || p.verdict() == Verdict.FAIL
                            || p.verdict() == Verdict.NOISY_FAIL)
                    .toList();
            Long passing = here.stream()
                    .filter(p -> p.verdict().passed())
                    .map(TriedPoint::budgetUs)
                    .min(Long::compare)
                    .orElse(null);
            Long failingBelow = here.stream()
                    .filter(p -> !p.verdict().passed())
                    .map(TriedPoint::budgetUs)
                    .filter(b -> passing == null || b < passing)
                    .max(Long::compare)
                    .orElse(null);
            Status status;
            if (here.isEmpty()) {
                status = unfinished == Status.OPEN ? Status.OPEN : Status.NOT_SEARCHED;
            } else if (passing != null && passing == range.minBudgetUs()) {
                status = Status.LOWER_BOUND_PASSES;
            } else if (passing != null && failingBelow != null && passing - failingBelow <= range.resolutionUs()) {
                status = Status.FOUND;
            } else if (passing == null && Long.valueOf(range.maxBudgetUs()).equals(failingBelow)) {
                status = Status.NONE_PASSES;
                failingBelow = null;
            } else {
                status = unfinished;
            }
            outcomes.add(new PeriodOutcome(range, status, passing, failingBelow));
        }
        return outcomes;
    }
}
