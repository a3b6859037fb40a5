package org.itsrt.clock;

/**
 * The native half of the TSC clock ({@code its-clock/src/main/native/itsclock.c}). The methods
 * only work after {@link NativeLibraryLoader} has loaded {@code libitsclock.so}; before that each
 * call throws {@link UnsatisfiedLinkError}.
 */
final class NativeTsc {

    /** {@link #counterKind()}: the library was built for an architecture without a counter. */
    static final int COUNTER_NONE = 0;
    /** {@link #counterKind()}: RDTSCP on x86-64. */
    static final int COUNTER_RDTSCP = 1;
    /** {@link #counterKind()}: CNTVCT_EL0 on aarch64. */
    static final int COUNTER_CNTVCT = 2;

    /** {@link #reportedFrequencySource()}: the CPU reports no frequency. */
    static final int SOURCE_NONE = 0;
    /** CPUID leaf 0x15: crystal frequency times the TSC/crystal ratio. */
    static final int SOURCE_CPUID_15 = 1;
    /** CPUID leaf 0x40000010: the hypervisor's TSC frequency in kHz. */
    static final int SOURCE_CPUID_HYPERVISOR = 2;
    /** CNTFRQ_EL0, the generic timer frequency the firmware programmed. */
    static final int SOURCE_CNTFRQ = 3;

    private NativeTsc() {}

    /** Which counter the loaded library reads, one of the {@code COUNTER_*} constants. */
    static native int counterKind();

    /** The counter: RDTSCP (then LFENCE) on x86-64, ISB + CNTVCT_EL0 on aarch64. */
    static native long ticks();

    /** {@code clock_gettime(CLOCK_MONOTONIC_RAW)} in nanoseconds. */
    static native long monotonicRawNanos();

    /** Fills {@code out[0..2]} with ticks, CLOCK_MONOTONIC_RAW ns, ticks, read back to back. */
    static native void sample(long[] out);

    /** The counter frequency in Hz the CPU (or hypervisor) reports, 0 when it reports none. */
    static native long reportedFrequencyHz();

    /** Where {@link #reportedFrequencyHz()} comes from, one of the {@code SOURCE_*} constants. */
    static native int reportedFrequencySource();

    static String describeSource(int source) {
        return switch (source) {
            case SOURCE_CPUID_15 -> "cpuid leaf 0x15 (crystal clock x TSC ratio)";
            case SOURCE_CPUID_HYPERVISOR -> "cpuid leaf 0x40000010 (hypervisor TSC kHz)";
            case SOURCE_CNTFRQ -> "cntfrq_el0";
            default -> "not reported";
        };
    }
}
