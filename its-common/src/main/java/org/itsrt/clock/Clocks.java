package org.itsrt.clock;

/** The clock every producer and probe of this host uses. */
public final class Clocks {

    private Clocks() {
    }

    /** The host's latency clock: the TSC when usable, else {@link System#nanoTime()} with a warning. */
    public static LatencyClock system() {
        return Holder.SYSTEM;
    }

    private static final class Holder {
        static final LatencyClock SYSTEM = new NanoTimeClock("TSC clock not built yet");
    }
}
