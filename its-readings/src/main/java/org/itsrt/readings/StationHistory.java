package org.itsrt.readings;

import java.time.Instant;
import java.util.Arrays;

/**
 * The latest readings of one detector station, enough to fill the model's input window: the one
 * windowing rule of the project, used by the producers to cut the windows they send and by
 * {@code its replay} to predict reading by reading.
 *
 * <p>A window is only offered when its readings are consecutive 5-minute intervals: after a gap
 * (a lost or late reading) the history starts over, because a model fed a window with a hole in
 * it would predict from the wrong past. Not thread-safe: one history per station, owned by
 * whoever walks that station's readings in time order.
 */
public final class StationHistory {

    private final int window;
    private final double[] flows;
    private final double[] speeds;
    private Instant newest;
    private int filled;
    private long restarts;

    public StationHistory(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1 reading, got " + window);
        }
        this.window = window;
        this.flows = new double[window];
        this.speeds = new double[window];
    }

    /**
     * Adds the station's next reading.
     *
     * @throws IllegalArgumentException if the reading is not later than the previous one
     */
    public void add(Reading reading) {
        Instant ts = reading.tsUtc();
        if (newest != null && !ts.isAfter(newest)) {
            throw new IllegalArgumentException("reading of station " + reading.stationId() + " at " + ts
                    + " is not after the previous one at " + newest);
        }
        if (newest != null && !ts.equals(newest.plus(Reading.INTERVAL))) {
            filled = 0;
            restarts++;
        }
        // Shift left: the window is 12 values, cheaper to move than to index a ring on every read.
        if (filled == window) {
            System.arraycopy(flows, 1, flows, 0, window - 1);
            System.arraycopy(speeds, 1, speeds, 0, window - 1);
            filled--;
        }
        flows[filled] = reading.flow();
        speeds[filled] = reading.hasSpeed() ? reading.speed() : Double.NaN;
        filled++;
        newest = ts;
    }

    /** True when the last {@code window} readings are consecutive intervals. */
    public boolean isFull() {
        return filled == window;
    }

    /** Flows of the window, oldest first; a copy. */
    public double[] flows() {
        requireFull();
        return Arrays.copyOf(flows, window);
    }

    /** Speeds of the window, oldest first, NaN where unknown; a copy. */
    public double[] speeds() {
        requireFull();
        return Arrays.copyOf(speeds, window);
    }

    /** Start of the newest interval in the window. */
    public Instant newest() {
        return newest;
    }

    /** How many times a gap made the history start over. */
    public long restarts() {
        return restarts;
    }

    private void requireFull() {
        if (!isFull()) {
            throw new IllegalStateException("only " + filled + " of " + window + " consecutive readings so far");
        }
    }
}
