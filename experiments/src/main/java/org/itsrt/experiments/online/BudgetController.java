package org.itsrt.experiments.online;

import java.util.Locale;
import org.itsrt.cli.Numbers;

/**
 * The budget of the next interval from what the last one measured: multiplicative both ways but
 * asymmetric (double on a miss the budget caused, a tenth less after calm intervals), with a
 * feed-forward on the load.
 *
 * <ul>
 *   <li><b>Over the SLO</b> (the interval's p99 above {@code sloP99Ms}) while the group was
 *       throttled in this interval or the one before: multiply the budget by
 *       {@code increaseFactor}. A missed SLO costs records now; a budget
 *       a little too large costs only CPU, so the way up is fast. A miss without any throttling is
 *       not the budget's doing (a collection, a broker's pause, a neighbour on the host): more
 *       budget would not have helped, so it holds.
 *   <li><b>The load rose</b> (records per second up by more than {@code loadRise} on the last
 *       interval) while the SLO still held: raise the budget to {@code headroom} times the CPU the
 *       group used, scaled by the load's factor (the work per record is about constant, so the
 *       CPU used grows with the load, not the budget); so a step in the load is met before its
 *       backlog shows in p99. Where the kernel does not count the group's CPU, the budget itself
 *       is scaled by the load's factor.
 *   <li><b>Calm</b> (p99 below {@code calmBelow} of the SLO for {@code calmIntervals} intervals
 *       in a row): multiply the budget by {@code decreaseFactor}. The way down is gentler and
 *       waits for evidence, because each step down risks the SLO and its effect shows only in the
 *       next intervals; multiplicative, so that a budget far above what the job uses comes down
 *       in a few steps and one near the edge in small ones.
 *   <li>Otherwise hold. An interval without arrivals holds too: the load has not begun or
 *       the pipeline is stalled, and neither says which way to go.
 * </ul>
 *
 * The budget stays between {@code floorUs} and {@code ceilingUs}. Budgets are per CPU and per
 * period, as an experiment's rows give them. Not thread-safe: one controller thread owns it.
 */
public final class BudgetController {

    /**
     * @param sloP99Ms       the p99 each interval must meet
     * @param floorUs        the least budget per CPU per period
     * @param ceilingUs      the most, and the budget at the start (safe: the job starts unstarved)
     * @param increaseFactor how much a miss multiplies the budget by
     * @param decreaseFactor how much a calm step multiplies it by
     * @param calmBelow      p99 below this share of the SLO counts as calm
     * @param calmIntervals  calm intervals in a row before a step down
     * @param loadRise       records per second up by more than this factor: follow the load
     * @param headroom       when following the load, the budget is at least this many times the
     *                       CPU the load will use
     */
    public record Settings(
            double sloP99Ms,
            long floorUs,
            long ceilingUs,
            double increaseFactor,
            double decreaseFactor,
            double calmBelow,
            int calmIntervals,
            double loadRise,
            double headroom) {

        public Settings {
            if (!(sloP99Ms > 0)
                    || floorUs < 1
                    || ceilingUs < floorUs
                    || !(increaseFactor > 1)
                    || !(decreaseFactor > 0 && decreaseFactor < 1)
                    || !(calmBelow > 0 && calmBelow < 1)
                    || calmIntervals < 1
                    || !(loadRise > 1)
                    || !(headroom >= 1)) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "not controller settings: SLO %s ms, budget %d..%d us, x%s on a miss, x%s when calm, calm below "
                                + "%s for %d intervals, load rise %s, headroom %s",
                        sloP99Ms,
                        floorUs,
                        ceilingUs,
                        increaseFactor,
                        decreaseFactor,
                        calmBelow,
                        calmIntervals,
                        loadRise,
                        headroom));
            }
        }

        /**
         * The defaults for a range: double on a miss, a tenth less after two intervals in a row
         * under half the SLO, follow a load up by more than 20 % with twice the CPU it will use.
         */
        public static Settings of(double sloP99Ms, long floorUs, long ceilingUs) {
            return new Settings(sloP99Ms, floorUs, ceilingUs, 2, 0.9, 0.5, 2, 1.2, 2);
        }
    }

    /** What a decision did. */
    public enum Action {
        HOLD,
        INCREASE,
        FOLLOW_LOAD,
        DECREASE
    }

    /** The budget for the next interval, and why. */
    public record Decision(long budgetUs, Action action, String why) {}

    private final Settings settings;
    private long budgetUs;
    private double lastRate = Double.NaN;
    private boolean throttledBefore;
    private int calm;

    public BudgetController(Settings settings) {
        this.settings = settings;
        this.budgetUs = settings.ceilingUs();
    }

    public Settings settings() {
        return settings;
    }

    /** The budget in force: the ceiling until the first decision. */
    public long budgetUs() {
        return budgetUs;
    }

    /**
     * @param records        records that arrived in the interval
     * @param seconds        the interval's length
     * @param p99Ms          their p99 (ignored without records)
     * @param throttledShare the share of the interval's periods in which the group was throttled
     * @param usedUs         the CPU the group used in the interval, per CPU and per period, in the
     *                       budget's unit (microseconds); NaN where the kernel does not count it
     */
    public Decision next(long records, double seconds, double p99Ms, double throttledShare, double usedUs) {
        boolean throttled = throttledShare > 0 || throttledBefore;
        throttledBefore = throttledShare > 0;
        if (records == 0) {
            calm = 0;
            return new Decision(budgetUs, Action.HOLD, "no arrivals");
        }
        double rate = records / seconds;
        double previousRate = lastRate;
        lastRate = rate;
        if (p99Ms > settings.sloP99Ms()) {
            calm = 0;
            if (!throttled) {
                return new Decision(
                        budgetUs,
                        Action.HOLD,
                        String.format(
                                Locale.ROOT,
                                "p99 %.1f ms over the SLO, but the group was not throttled: not the budget's doing",
                                p99Ms));
            }
            long up = Math.max(Math.round(budgetUs * settings.increaseFactor()), budgetUs + 1);
            return change(
                    up,
                    Action.INCREASE,
                    String.format(
                            Locale.ROOT,
                            "p99 %.1f ms over the SLO, throttled in %.0f%% of periods",
                            p99Ms,
                            throttledShare * 100));
        }
        if (previousRate > 0 && rate > previousRate * settings.loadRise()) {
            calm = 0;
            double factor = rate / previousRate;
            if (Double.isNaN(usedUs)) {
                return change(
                        (long) Math.ceil(budgetUs * factor),
                        Action.FOLLOW_LOAD,
                        String.format(Locale.ROOT, "load %.0f -> %.0f records/s", previousRate, rate));
            }
            long needed = (long) Math.ceil(usedUs * factor * settings.headroom());
            String why = String.format(
                    Locale.ROOT,
                    "load %.0f -> %.0f records/s, using %.0f us of the budget: x%s for %.0f us",
                    previousRate,
                    rate,
                    usedUs,
                    Numbers.plain(settings.headroom()),
                    usedUs * factor * settings.headroom());
            if (needed <= budgetUs) {
                return new Decision(budgetUs, Action.HOLD, why + ", within the budget");
            }
            return change(needed, Action.FOLLOW_LOAD, why);
        }
        if (p99Ms < settings.calmBelow() * settings.sloP99Ms()) {
            calm++;
            if (calm >= settings.calmIntervals()) {
                calm = 0;
                return change(
                        Math.min(budgetUs - 1, Math.round(budgetUs * settings.decreaseFactor())),
                        Action.DECREASE,
                        String.format(
                                Locale.ROOT,
                                "p99 under %.0f%% of the SLO for %d intervals",
                                settings.calmBelow() * 100,
                                settings.calmIntervals()));
            }
            return new Decision(budgetUs, Action.HOLD, "calm " + calm + " of " + settings.calmIntervals());
        }
        calm = 0;
        return new Decision(budgetUs, Action.HOLD, "within the SLO");
    }

    private Decision change(long wanted, Action action, String why) {
        long bounded = Math.max(settings.floorUs(), Math.min(settings.ceilingUs(), wanted));
        if (bounded == budgetUs) {
            return new Decision(
                    budgetUs,
                    Action.HOLD,
                    why + (bounded == settings.ceilingUs() ? ", at the ceiling" : ", at the floor"));
        }
        budgetUs = bounded;
        return new Decision(bounded, action, why);
    }
}
