package org.itsrt.model;

import java.time.Instant;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

/**
 * Turns a {@link ReadingWindow} into the model's scaled input {@code [window, features]}, exactly
 * as the trainer's {@code feature_tensor} does: values computed in double, stored as float32.
 * Not thread-safe: it remembers the zone offset of the last reading, which changes twice a year.
 */
public final class FeatureEncoder {
    private static final int SECONDS_PER_DAY = 86_400;

    private final Feature[] features;
    private final int window;
    private final int intervalSeconds;
    private final ZoneRules zoneRules;
    private final FeatureRange flow;
    private final FeatureRange speed;
    private final boolean timeOfDay;
    /** The cached offset holds for epoch seconds in [offsetFrom, offsetUntil). */
    private long offsetFrom = Long.MAX_VALUE;

    private long offsetUntil = Long.MIN_VALUE;
    private int offsetSeconds;

    public FeatureEncoder(ModelSpec model, Scaler scaler) {
        List<Feature> list = model.features();
        this.features = list.toArray(new Feature[0]);
        this.window = model.window();
        this.intervalSeconds = model.intervalSeconds();
        this.zoneRules = model.timezone().getRules();
        this.flow = scaler.flow();
        this.speed = scaler.speed();
        this.timeOfDay = list.contains(Feature.TOD_SIN) || list.contains(Feature.TOD_COS);
        if (list.contains(Feature.SPEED) && speed == null) {
            throw new IllegalArgumentException("the model uses speed but the scaler has no speed range");
        }
    }

    /** Floats per encoded window: window x features. */
    public int inputWidth() {
        return window * features.length;
    }

    public float[] encode(ReadingWindow readings) {
        float[] out = new float[inputWidth()];
        encode(readings, out, 0);
        return out;
    }

    /** Writes the window's {@link #inputWidth()} floats to {@code out} from {@code offset}. */
    public void encode(ReadingWindow readings, float[] out, int offset) {
        if (readings.size() != window) {
            throw new IllegalArgumentException(
                    "the window holds " + readings.size() + " readings; the model wants " + window);
        }
        long newest = readings.newestStart().getEpochSecond();
        int at = offset;
        for (int i = 0; i < window; i++) {
            double seconds = timeOfDay ? secondsOfDay(newest - (long) (window - 1 - i) * intervalSeconds) : 0;
            for (Feature feature : features) {
                out[at++] = (float)
                        switch (feature) {
                            case FLOW -> flow.scale(readings.flow(i));
                            case SPEED ->
                                speed.scale(Double.isNaN(readings.speed(i)) ? speed.fill() : readings.speed(i));
                            case TOD_SIN -> Math.sin(2 * Math.PI * seconds / SECONDS_PER_DAY);
                            case TOD_COS -> Math.cos(2 * Math.PI * seconds / SECONDS_PER_DAY);
                        };
            }
        }
    }

    /** Local wall-clock seconds since midnight, in the model's time zone. */
    private double secondsOfDay(long epochSecond) {
        if (epochSecond < offsetFrom || epochSecond >= offsetUntil) {
            Instant instant = Instant.ofEpochSecond(epochSecond);
            offsetSeconds = zoneRules.getOffset(instant).getTotalSeconds();
            ZoneOffsetTransition previous = zoneRules.previousTransition(instant.plusSeconds(1));
            ZoneOffsetTransition next = zoneRules.nextTransition(instant);
            offsetFrom = previous == null ? Long.MIN_VALUE : previous.toEpochSecond();
            offsetUntil = next == null ? Long.MAX_VALUE : next.toEpochSecond();
        }
        return Math.floorMod(epochSecond + offsetSeconds, SECONDS_PER_DAY);
    }
}
