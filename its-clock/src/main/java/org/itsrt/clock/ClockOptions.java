package org.itsrt.clock;

import java.nio.file.Path;
import java.util.Locale;

/**
 * How {@link Clocks#open(ClockOptions)} picks and sets up the clock. {@link #fromSystemProperties()}
 * is what {@link Clocks#system()} uses:
 * <ul>
 *   <li>{@code itsrt.clock=auto|tsc|nanotime}: auto (default) takes the TSC when it is usable
 *       and falls back to {@link System#nanoTime()} with a warning; tsc insists on the TSC (used
 *       even without the invariance flags, and an error when the library does not load);
 *       nanotime never touches the native library.</li>
 *   <li>{@code itsrt.clock.cache=FILE}: the per-boot calibration file, by default
 *       {@code itsrt-tsc-calibration.json} in {@code java.io.tmpdir}. Every process on a host
 *       must see the same file: set it when some process gets another {@code java.io.tmpdir}.</li>
 *   <li>{@code itsrt.clock.library=FILE}: load {@code libitsclock.so} from this file instead of
 *       the class path.</li>
 * </ul>
 *
 * @param choice            which clock to use
 * @param libraryResource   class path resource of the native library
 * @param libraryFile       a file to load the library from instead, or null
 * @param cacheFile         the per-boot calibration file
 * @param bootIdFile        where the Linux boot id is read
 * @param cpuinfoFile       where the x86 CPU flags are read
 * @param osArch            the JVM's {@code os.arch}
 * @param calibrationMillis how long a calibration against CLOCK_MONOTONIC_RAW runs
 */
public record ClockOptions(
        Choice choice,
        String libraryResource,
        Path libraryFile,
        Path cacheFile,
        Path bootIdFile,
        Path cpuinfoFile,
        String osArch,
        long calibrationMillis) {

    /** Which clock to use. */
    public enum Choice {
        /** The TSC when usable, else {@link System#nanoTime()} with a warning. */
        AUTO,
        /** The TSC, even when the invariance flags are missing; an error when it cannot load. */
        TSC,
        /** {@link System#nanoTime()}. */
        NANOTIME;

        /** Parses {@code auto}, {@code tsc} or {@code nanotime} (case-insensitive). */
        public static Choice parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("itsrt.clock must be auto, tsc or nanotime, not '" + s + "'", e);
            }
        }
    }

    public static final String PROPERTY_CHOICE = "itsrt.clock";
    public static final String PROPERTY_CACHE = "itsrt.clock.cache";
    public static final String PROPERTY_LIBRARY = "itsrt.clock.library";
    public static final String DEFAULT_CACHE_NAME = "itsrt-tsc-calibration.json";
    public static final long DEFAULT_CALIBRATION_MILLIS = 500;

    public ClockOptions {
        if (choice == null
                || libraryResource == null
                || cacheFile == null
                || bootIdFile == null
                || cpuinfoFile == null
                || osArch == null) {
            throw new IllegalArgumentException("only libraryFile may be null");
        }
        if (calibrationMillis <= 0) {
            throw new IllegalArgumentException("calibrationMillis must be positive: " + calibrationMillis);
        }
    }

    /** AUTO, the library from the class path, the cache in {@code java.io.tmpdir}; no system properties. */
    public static ClockOptions defaults() {
        String arch = System.getProperty("os.arch", "unknown");
        return new ClockOptions(
                Choice.AUTO,
                NativeLibraryLoader.defaultResource(arch),
                null,
                Path.of(System.getProperty("java.io.tmpdir"), DEFAULT_CACHE_NAME),
                Path.of("/proc/sys/kernel/random/boot_id"),
                Path.of("/proc/cpuinfo"),
                arch,
                DEFAULT_CALIBRATION_MILLIS);
    }

    /** {@link #defaults()} with {@code itsrt.clock}, {@code itsrt.clock.cache} and {@code itsrt.clock.library} applied. */
    public static ClockOptions fromSystemProperties() {
        ClockOptions o = defaults();
        String choice = System.getProperty(PROPERTY_CHOICE);
        if (choice != null && !choice.isBlank()) {
            o = o.withChoice(Choice.parse(choice));
        }
        String cache = System.getProperty(PROPERTY_CACHE);
        if (cache != null && !cache.isBlank()) {
            o = o.withCacheFile(Path.of(cache));
        }
        String library = System.getProperty(PROPERTY_LIBRARY);
        if (library != null && !library.isBlank()) {
            o = o.withLibraryFile(Path.of(library));
        }
        return o;
    }

    public ClockOptions withChoice(Choice c) {
        return new ClockOptions(
                c, libraryResource, libraryFile, cacheFile, bootIdFile, cpuinfoFile, osArch, calibrationMillis);
    }

    public ClockOptions withLibraryResource(String r) {
        return new ClockOptions(choice, r, libraryFile, cacheFile, bootIdFile, cpuinfoFile, osArch, calibrationMillis);
    }

    public ClockOptions withLibraryFile(Path f) {
        return new ClockOptions(
                choice, libraryResource, f, cacheFile, bootIdFile, cpuinfoFile, osArch, calibrationMillis);
    }

    public ClockOptions withCacheFile(Path f) {
        return new ClockOptions(
                choice, libraryResource, libraryFile, f, bootIdFile, cpuinfoFile, osArch, calibrationMillis);
    }

    public ClockOptions withBootIdFile(Path f) {
        return new ClockOptions(
                choice, libraryResource, libraryFile, cacheFile, f, cpuinfoFile, osArch, calibrationMillis);
    }

    public ClockOptions withCpuinfoFile(Path f) {
        return new ClockOptions(
                choice, libraryResource, libraryFile, cacheFile, bootIdFile, f, osArch, calibrationMillis);
    }

    public ClockOptions withOsArch(String a) {
        return new ClockOptions(
                choice, libraryResource, libraryFile, cacheFile, bootIdFile, cpuinfoFile, a, calibrationMillis);
    }

    public ClockOptions withCalibrationMillis(long ms) {
        return new ClockOptions(choice, libraryResource, libraryFile, cacheFile, bootIdFile, cpuinfoFile, osArch, ms);
    }
}
