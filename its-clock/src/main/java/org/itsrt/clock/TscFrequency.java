package org.itsrt.clock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Finds the tick -> nanosecond conversion every process on this host must share.
 *
 * <ol>
 *   <li>When the CPU reports the counter frequency (CPUID leaf 0x40000010 or 0x15 on x86-64,
 *       CNTFRQ_EL0 on aarch64), ns = ticks * 1e9 / f from tick 0: a pure function of the counter
 *       and the same in every process. A short measurement guards against a reported value that
 *       is plainly wrong (more than 1% off), in which case calibration takes over.</li>
 *   <li>Otherwise the frequency is calibrated against CLOCK_MONOTONIC_RAW, and the result (the
 *       frequency and an anchor pair ticks / raw ns) is kept in a per-boot file so that every
 *       later process on this boot converts with exactly the same numbers. A file lock makes
 *       processes that start together wait for one calibration instead of each doing their
 *       own.</li>
 * </ol>
 */
final class TscFrequency {

    /** What the frequency lookup needs from the counter; {@link NativeTsc} in production. */
    interface Counter {
        long reportedFrequencyHz();

        int reportedFrequencySource();

        /** ticks, CLOCK_MONOTONIC_RAW ns, ticks into {@code out[0..2]}. */
        void sample(long[] out);
    }

    /** The native counter. */
    static final Counter NATIVE = new Counter() {
        @Override
        public long reportedFrequencyHz() {
            return NativeTsc.reportedFrequencyHz();
        }

        @Override
        public int reportedFrequencySource() {
            return NativeTsc.reportedFrequencySource();
        }

        @Override
        public void sample(long[] out) {
            NativeTsc.sample(out);
        }
    };

    /**
     * The conversion and how it was found.
     *
     * @param fromCache true when this process reused a calibration another process wrote
     * @param note      why a preferred source was not used, or empty
     */
    record Resolved(TicksToNanos conversion, String source, boolean fromCache, String note) {}

    /** How long the check of a CPU-reported frequency measures. */
    static final long REPORTED_CHECK_MILLIS = 20;
    /** A reported frequency further than this (relative) from the measured one is not trusted. */
    static final double REPORTED_TOLERANCE = 0.01;

    /** Serialises cache use inside one JVM: a FileLock is per process, not per thread. */
    private static final Object JVM_LOCK = new Object();

    private TscFrequency() {}

    static Resolved resolve(Counter counter, String counterName, ClockOptions options)
            throws ClockUnavailableException {
        String note = "";
        long reported = counter.reportedFrequencyHz();
        if (reported > 0) {
            String source = NativeTsc.describeSource(counter.reportedFrequencySource());
            TscCalibration.Result check = TscCalibration.calibrate(counter::sample, REPORTED_CHECK_MILLIS);
            double off = Math.abs(check.frequencyHz() - reported) / (double) reported;
            if (off <= REPORTED_TOLERANCE) {
                return new Resolved(new TicksToNanos(reported, 0, 0), source, false, "");
            }
            note = source + " says " + reported + " Hz but the counter runs at about " + check.frequencyHz()
                    + " Hz, so it is calibrated instead";
        }
        return calibrated(counter, counterName, options, note);
    }

    private static Resolved calibrated(Counter counter, String counterName, ClockOptions options, String note)
            throws ClockUnavailableException {
        Path file = options.cacheFile();
        String bootId = CalibrationCache.bootId(options.bootIdFile());
        if (bootId == null) {
            TscCalibration.Result r = TscCalibration.calibrate(counter::sample, options.calibrationMillis());
            return new Resolved(
                    conversion(r),
                    label(r, null, null) + ", not cached: the boot id " + options.bootIdFile() + " is unreadable",
                    false,
                    note);
        }
        synchronized (JVM_LOCK) {
            Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
            FileChannel channel = null;
            FileLock lock = null;
            try {
                try {
                    Files.createDirectories(file.toAbsolutePath().getParent());
                    channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    lock = channel.lock();
                } catch (IOException e) {
                    // Without the lock two processes may calibrate at once; still correct for each.
                    lock = null;
                }
                String reason = "";
                try {
                    CalibrationCache.Entry e = CalibrationCache.read(file);
                    reason = usable(e, bootId, counterName, counter);
                    if (reason.isEmpty()) {
                        return new Resolved(conversion(e.result()), label(e.result(), e.writtenAt(), file), true, note);
                    }
                    if (!e.bootId().equals(bootId)) {
                        reason = ""; // left over from an earlier boot: the normal first start after a reboot
                    }
                } catch (NoSuchFileException e) {
                    reason = "";
                } catch (IOException | IllegalArgumentException e) {
                    reason = "the calibration file " + file + " was unreadable (" + e.getMessage() + ")";
                }
                TscCalibration.Result r = TscCalibration.calibrate(counter::sample, options.calibrationMillis());
                String writtenAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
                String source;
                try {
                    CalibrationCache.write(file, new CalibrationCache.Entry(bootId, counterName, r, writtenAt));
                    source = label(r, writtenAt, file);
                } catch (IOException | RuntimeException e) {
                    source = label(r, null, null) + ", not cached: " + file + " is not writable (" + e + ")";
                }
                return new Resolved(
                        conversion(r), source, false, join(note, reason.isEmpty() ? "" : reason + ", recalibrated"));
            } finally {
                try {
                    if (lock != null) {
                        lock.release();
                    }
                    if (channel != null) {
                        channel.close();
                    }
                } catch (IOException ignored) {
                    // The lock goes with the channel, and the channel with the process.
                }
            }
        }
    }

    /** Empty when the cached entry applies to this boot and counter and still tracks the raw clock. */
    static String usable(CalibrationCache.Entry e, String bootId, String counterName, Counter counter) {
        if (!e.bootId().equals(bootId)) {
            return "the calibration file is from another boot (" + e.bootId() + ")";
        }
        if (!e.counter().equals(counterName)) {
            return "the calibration file is for counter " + e.counter();
        }
        TscCalibration.Point now = TscCalibration.narrowest(counter::sample, 8);
        if (now == null) {
            return "the counter ran backwards";
        }
        long predicted = conversion(e.result()).toNanos(now.ticks());
        long error = Math.abs(predicted - now.rawNanos());
        long elapsed = Math.abs(now.rawNanos() - e.result().anchorRawNanos());
        // A calibration is good to well under 1 ppm; 100 ppm means the file does not fit this counter.
        if (error > 1_000_000L + elapsed / 10_000) {
            return "the calibration file is off CLOCK_MONOTONIC_RAW by " + error + " ns after "
                    + elapsed / 1_000_000_000L + " s";
        }
        return "";
    }

    static TicksToNanos conversion(TscCalibration.Result r) {
        return new TicksToNanos(r.frequencyHz(), r.anchorTicks(), r.anchorRawNanos());
    }

    private static String label(TscCalibration.Result r, String writtenAt, Path file) {
        String s = "calibrated against CLOCK_MONOTONIC_RAW (" + r.durationMillis() + " ms)";
        if (file != null) {
            s += " at " + writtenAt + ", cached for this boot in " + file;
        }
        return s;
    }

    private static String join(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : a + "; " + b;
    }
}
