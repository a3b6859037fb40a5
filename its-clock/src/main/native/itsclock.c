/*
 * The latency clock's counter, read through JNI by org.itsrt.clock.NativeTsc.
 *
 * x86-64: RDTSCP, which waits until every earlier instruction has executed before it reads the
 * TSC, followed by LFENCE so that later instructions (the send the stamp is for) cannot start
 * before the read. aarch64: ISB then CNTVCT_EL0, the virtual count of the generic timer.
 *
 * The conversion to nanoseconds lives in Java so that every process on a host applies exactly
 * the same one; this file only reads counters and what the CPU says about their frequency.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

/* Keep in step with NativeTsc.COUNTER_* and NativeTsc.SOURCE_*. */
#define COUNTER_NONE 0
#define COUNTER_RDTSCP 1
#define COUNTER_CNTVCT 2

#define SOURCE_NONE 0
#define SOURCE_CPUID_15 1
#define SOURCE_CPUID_HYPERVISOR 2
#define SOURCE_CNTFRQ 3

static inline uint64_t read_ticks(void) {
#if defined(__x86_64__)
    unsigned int aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
#elif defined(__aarch64__)
    uint64_t t;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(t) : : "memory");
    return t;
#else
    return 0;
#endif
}

static inline int64_t raw_nanos(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0) {
        return -1;
    }
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Which counter this build reads: lets Java refuse a library built for another architecture. */
JNIEXPORT jint JNICALL Java_org_itsrt_clock_NativeTsc_counterKind(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
#if defined(__x86_64__)
    return COUNTER_RDTSCP;
#elif defined(__aarch64__)
    return COUNTER_CNTVCT;
#else
    return COUNTER_NONE;
#endif
}

JNIEXPORT jlong JNICALL Java_org_itsrt_clock_NativeTsc_ticks(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    return (jlong) read_ticks();
}

JNIEXPORT jlong JNICALL Java_org_itsrt_clock_NativeTsc_monotonicRawNanos(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    return (jlong) raw_nanos();
}

/*
 * One calibration sample: ticks, CLOCK_MONOTONIC_RAW, ticks, all inside one native call so the
 * bracket around the clock_gettime read holds no JNI transition. out must have length >= 3.
 */
JNIEXPORT void JNICALL Java_org_itsrt_clock_NativeTsc_sample(JNIEnv *env, jclass cls, jlongArray out) {
    (void) cls;
    jlong v[3];
    v[0] = (jlong) read_ticks();
    v[1] = (jlong) raw_nanos();
    v[2] = (jlong) read_ticks();
    (*env)->SetLongArrayRegion(env, out, 0, 3, v);
}

#if defined(__x86_64__)
/* TSC frequency in Hz as the CPU or hypervisor reports it, 0 when it does not; *source says how. */
static uint64_t x86_reported_hz(int *source) {
    unsigned int eax, ebx, ecx, edx;
    *source = SOURCE_NONE;

    /*
     * A hypervisor that publishes timing information (VMware's convention, also offered by KVM
     * and others) puts the guest's TSC frequency in kHz in EAX of leaf 0x40000010. It wins over
     * leaf 0x15 because a guest's TSC may be scaled away from the host crystal ratio.
     */
    __cpuid(1, eax, ebx, ecx, edx);
    if (ecx & (1u << 31)) {
        __cpuid(0x40000000, eax, ebx, ecx, edx);
        if (eax >= 0x40000010 && eax < 0x40010000) {
            __cpuid(0x40000010, eax, ebx, ecx, edx);
            if (eax != 0) {
                *source = SOURCE_CPUID_HYPERVISOR;
                return (uint64_t) eax * 1000u;
            }
        }
    }

    /* Leaf 0x15: TSC = crystal Hz (ECX) * EBX / EAX; a zero in any of them means unknown. */
    if (__get_cpuid_max(0, NULL) >= 0x15) {
        __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
        if (eax != 0 && ebx != 0 && ecx != 0) {
            *source = SOURCE_CPUID_15;
            return (uint64_t) ecx * ebx / eax;
        }
    }
    return 0;
}
#endif

JNIEXPORT jlong JNICALL Java_org_itsrt_clock_NativeTsc_reportedFrequencyHz(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
#if defined(__x86_64__)
    int source;
    return (jlong) x86_reported_hz(&source);
#elif defined(__aarch64__)
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return (jlong) f;
#else
    return 0;
#endif
}

JNIEXPORT jint JNICALL Java_org_itsrt_clock_NativeTsc_reportedFrequencySource(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
#if defined(__x86_64__)
    int source;
    x86_reported_hz(&source);
    return source;
#elif defined(__aarch64__)
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return f != 0 ? SOURCE_CNTFRQ : SOURCE_NONE;
#else
    return SOURCE_NONE;
#endif
}
