package org.itsrt.producers.send;

import java.time.Duration;
import org.itsrt.cli.Durations;
import org.itsrt.cli.Numbers;

/**
 * A step in the open-loop rate: from {@code at} after the schedule's start, for {@code length},
 * every source sends {@code factor} times as fast, then at its rate again. Records keep their
 * order and count; only when each is due changes.
 *
 * <p>It works as a warp of the schedule's time: the constant-rate schedule gives each record a
 * time on its own clock, and this step maps that clock onto the wall clock, running it
 * {@code factor} times faster inside the step. So the spread of the sources within a period and
 * every guarantee of {@link OpenLoopSchedule} hold inside the step as outside, and the intended
 * times (what the probe measures from) follow the step exactly.
 *
 * @param at     when the step starts, from the schedule's start (the first record of the warm-up)
 * @param length how long it lasts on the wall clock
 * @param factor the rate inside it as a multiple of the rate outside; 1 for no step
 */
public record LoadStep(Duration at, Duration length, double factor) {

    /** The constant rate. */
    public static final LoadStep NONE = new LoadStep(Duration.ZERO, Duration.ZERO, 1);

    public LoadStep {
        if (at == null || at.isNegative() || length == null || length.isNegative()) {
            throw new IllegalArgumentException(
                    "a load step starts at a time >= 0 and lasts a time >= 0, got at " + at + ", for " + length);
        }
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("a load step's factor must be > 0, got " + factor);
        }
    }

    public boolean isNone() {
        return factor == 1 || length.isZero();
    }

    /**
     * The wall-clock time, from the schedule's start, at which the constant-rate schedule's time
     * {@code scheduleNs} falls: the same before the step, {@code factor} times compressed inside it,
     * shifted by what the step saved (or cost) after it.
     */
    public long wallNs(long scheduleNs) {
        if (isNone()) {
            return scheduleNs;
        }
        long startNs = at.toNanos();
        if (scheduleNs <= startNs) {
            return scheduleNs;
        }
        long lengthNs = length.toNanos();
        double scheduleInStepNs = lengthNs * factor;
        double into = scheduleNs - startNs;
        if (into <= scheduleInStepNs) {
            return startNs + Math.round(into / factor);
        }
        return startNs + lengthNs + Math.round(into - scheduleInStepNs);
    }

    /** The rate factor in force at {@code wallNs} from the schedule's start. */
    public double factorAt(long wallNs) {
        return !isNone() && wallNs >= at.toNanos() && wallNs < at.plus(length).toNanos() ? factor : 1;
    }

    /** In words, e.g. {@code the rate x3 from 1m for 2m}. */
    public String describe() {
        return isNone()
                ? "a constant rate"
                : "the rate x" + Numbers.plain(factor) + " from " + Durations.format(at) + " for "
                        + Durations.format(length);
    }

    /** As {@code --load-step} and a plan's {@code load.step} take it: {@code AT,LENGTH,FACTOR}, e.g. {@code 1m,2m,3}. */
    @Override
    public String toString() {
        return Durations.format(at) + "," + Durations.format(length) + "," + Numbers.plain(factor);
    }
}
