package org.itsrt.clock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The counter read through JNI ({@code rdtscp} on x86-64, {@code cntvct_el0} on aarch64) turned
 * into nanoseconds with the host-wide conversion of {@link TscFrequency}. One {@link #nanos()} is
 * one JNI call and a few integer operations, without allocation.
 */
final class TscClock implements LatencyClock {

    private final TicksToNanos conversion;
    private final ClockInfo info;
    private final String library;
    private final boolean fromCache;

    private TscClock(TicksToNanos conversion, ClockInfo info, String library, boolean fromCache) {
        this.conversion = conversion;
        this.info = info;
        this.library = library;
        this.fromCache = fromCache;
    }

    @Override
    public long nanos() {
        return conversion.toNanos(NativeTsc.ticks());
    }

    @Override
    public ClockInfo info() {
        return info;
    }

    /** Where the native library was loaded from (a jar URL or a file). */
    String library() {
        return library;
    }

    /** True when the conversion came from another process's calibration of this boot. */
    boolean fromCache() {
        return fromCache;
    }

    TicksToNanos conversion() {
        return conversion;
    }

    /**
     * Opens the TSC clock or says why it cannot be used.
     *
     * @param requireInvariant false to use the counter even when the CPU does not promise a
     *                         constant, non-stop rate (the reason becomes the clock's warning)
     */
    static TscClock open(ClockOptions options, boolean requireInvariant) throws ClockUnavailableException {
        String arch = options.osArch();
        boolean x86 = TscInvariance.isX86(arch);
        String cpuinfo = null;
        if (x86) {
            try {
                cpuinfo = Files.readString(options.cpuinfoFile(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                cpuinfo = null;
            }
        }
        String problem = TscInvariance.problem(arch, cpuinfo);
        String warning = "";
        if (problem != null) {
            boolean rdtscpMissing = x86
                    && cpuinfo != null
                    && TscInvariance.missingX86Flags(cpuinfo).contains("rdtscp");
            if (requireInvariant || !(x86 || TscInvariance.isAarch64(arch)) || rdtscpMissing) {
                throw new ClockUnavailableException(problem);
            }
            warning = problem + "; the TSC is used anyway because " + ClockOptions.PROPERTY_CHOICE + "=tsc";
        }

        String library = options.libraryFile() != null
                ? NativeLibraryLoader.loadFile(options.libraryFile())
                : NativeLibraryLoader.loadResource(options.libraryResource(), TscClock.class.getClassLoader());

        int expected = x86 ? NativeTsc.COUNTER_RDTSCP : NativeTsc.COUNTER_CNTVCT;
        int kind;
        try {
            kind = NativeTsc.counterKind();
        } catch (UnsatisfiedLinkError e) {
            throw new ClockUnavailableException(
                    "native library " + library + " lacks the clock functions: " + e.getMessage(), e);
        }
        if (kind != expected) {
            throw new ClockUnavailableException(
                    "native library " + library + " reads counter kind " + kind + ", not the one for " + arch);
        }
        String name = x86 ? "tsc-rdtscp" : "cntvct";

        TscFrequency.Resolved f = TscFrequency.resolve(TscFrequency.NATIVE, name, options);
        if (!f.note().isEmpty()) {
            warning = warning.isEmpty() ? f.note() : warning + "; " + f.note();
        }
        ClockInfo info = new ClockInfo(name, f.conversion().frequencyHz(), f.source(), warning);
        return new TscClock(f.conversion(), info, library, f.fromCache());
    }
}
