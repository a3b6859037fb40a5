package org.itsrt.experiments.capacity;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a capacity search varies, the load of its points: route requests per second beside the
 * plan's readings, or the detectors of its generated district at the plan's speed-up. The search
 * itself only needs to know a load's unit and whether it comes in whole numbers.
 */
public enum CapacityAxis {
    /** Route requests per second, all request streams together; the readings as the plan has them. */
    REQUESTS(
            "requests",
            "requests/s",
            "route requests per second",
            false,
            CapacityAxis.REQUESTS_MIN,
            CapacityAxis.REQUESTS_MAX,
            CapacityAxis.REQUESTS_RESOLUTION),
    /** Detectors of the plan's generated district, each at the plan's rate; the requests as the plan has them. */
    DETECTORS(
            "detectors",
            "detectors",
            "detectors of the district",
            true,
            CapacityAxis.DETECTORS_MIN,
            CapacityAxis.DETECTORS_MAX,
            CapacityAxis.DETECTORS_RESOLUTION);

    // Constants, so that the options' descriptions can name the defaults.
    public static final double REQUESTS_MIN = 250;
    public static final double REQUESTS_MAX = 8_000;
    public static final double REQUESTS_RESOLUTION = 100;
    /** A quarter of the default plan's 4,800 detectors, up to four times them. */
    public static final double DETECTORS_MIN = 1_200;

    public static final double DETECTORS_MAX = 19_200;
    public static final double DETECTORS_RESOLUTION = 200;

    /** How {@code --axis} spells it. */
    public final String optionName;

    /** The unit of a load, after its number: {@code 500 requests/s}, {@code 4800 detectors}. */
    public final String unit;

    /** What is searched, in words. */
    public final String title;

    /** Whether a load is a whole number (detectors are). */
    public final boolean whole;

    public final double defaultMin;
    public final double defaultMax;
    public final double defaultResolution;

    CapacityAxis(
            String optionName,
            String unit,
            String title,
            boolean whole,
            double defaultMin,
            double defaultMax,
            double defaultResolution) {
        this.optionName = optionName;
        this.unit = unit;
        this.title = title;
        this.whole = whole;
        this.defaultMin = defaultMin;
        this.defaultMax = defaultMax;
        this.defaultResolution = defaultResolution;
    }

    /** The axis {@code --axis} names; null for the default. */
    public static CapacityAxis of(String name) {
        if (name == null) {
            return REQUESTS;
        }
        return Arrays.stream(values())
                .filter(a -> a.optionName.equals(name.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--axis must be "
                        + Arrays.stream(values()).map(a -> a.optionName).collect(Collectors.joining(" or "))
                        + ", got " + name));
    }

    /** A load with its unit, e.g. {@code 500 requests/s}. */
    public String quantity(double load) {
        return CapacitySlo.number(load) + " " + unit;
    }

    /** A load's column in points.csv: {@code requests_per_s} or {@code detectors}. */
    public String column() {
        return unit.replace("/", "_per_");
    }
}
