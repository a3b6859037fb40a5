package org.itsrt.clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock every producer and probe of this host uses (docs/design.md, D4): the TSC through
 * {@code libitsclock.so} when it loads and the TSC is invariant, else {@link System#nanoTime()}
 * with a warning that says why. {@code -Ditsrt.clock=tsc|nanotime} forces a choice (see
 * {@link ClockOptions}).
 */
public final class Clocks {

    private static final Logger LOG = LoggerFactory.getLogger(Clocks.class);

    private static volatile LatencyClock system;

    private Clocks() {}

    /**
     * The host's latency clock, set up on the first call from the system properties and shared
     * by the whole JVM. The first call logs which clock it is, as a warning when it is a fallback.
     *
     * @throws IllegalStateException when {@code itsrt.clock=tsc} is set and the TSC cannot load
     */
    public static LatencyClock system() {
        LatencyClock c = system;
        if (c == null) {
            synchronized (Clocks.class) {
                c = system;
                if (c == null) {
                    ClockOptions options = ClockOptions.fromSystemProperties();
                    c = open(options);
                    ClockInfo info = c.info();
                    if (options.choice() != ClockOptions.Choice.NANOTIME
                            && !info.warning().isEmpty()) {
                        LOG.warn("Latency clock: {}", info.describe());
                    } else {
                        LOG.info("Latency clock: {}", info.describe());
                    }
                    system = c;
                }
            }
        }
        return c;
    }

    /**
     * Opens a clock with the given options; logs nothing (the caller reports {@link LatencyClock#info()}).
     *
     * @throws IllegalStateException when {@link ClockOptions.Choice#TSC} is asked for and the TSC cannot load
     */
    public static LatencyClock open(ClockOptions options) {
        switch (options.choice()) {
            case NANOTIME:
                return new NanoTimeClock("TSC not used: " + ClockOptions.PROPERTY_CHOICE + "=nanotime");
            case TSC:
                try {
                    return TscClock.open(options, false);
                } catch (ClockUnavailableException e) {
                    throw new IllegalStateException(ClockOptions.PROPERTY_CHOICE + "=tsc, but " + e.getMessage(), e);
                }
            case AUTO:
            default:
                try {
                    return TscClock.open(options, true);
                } catch (ClockUnavailableException e) {
                    return new NanoTimeClock(e.getMessage() + "; falling back to System.nanoTime");
                }
        }
    }

    /** {@link #open(ClockOptions)} with {@link ClockOptions#defaults()} and the given choice. */
    public static LatencyClock open(ClockOptions.Choice choice) {
        return open(ClockOptions.defaults().withChoice(choice));
    }
}
