package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TscInvarianceTest {

    static final String FLAGS_OK = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx"
            + " fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl"
            + " nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16";

    static String cpuinfo(String... flagLines) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < flagLines.length; i++) {
            sb.append("processor\t: ")
                    .append(i)
                    .append('\n')
                    .append("vendor_id\t: AuthenticAMD\n")
                    .append("model name\t: AMD EPYC\n")
                    .append("cpu MHz\t\t: 2445.404\n")
                    .append("flags\t\t: ")
                    .append(flagLines[i])
                    .append('\n')
                    .append("bugs\t\t: sysret_ss_attrs null_seg spectre_v1\n")
                    .append("power management:\n\n");
        }
        return sb.toString();
    }

    @Test
    void invariantTscOnEveryProcessorPasses() {
        String text = cpuinfo(FLAGS_OK, FLAGS_OK);
        assertThat(TscInvariance.commonFlags(text)).contains("constant_tsc", "nonstop_tsc", "rdtscp", "tsc_known_freq");
        assertThat(TscInvariance.missingX86Flags(text)).isEmpty();
        assertThat(TscInvariance.problem("amd64", text)).isNull();
        assertThat(TscInvariance.problem("x86_64", text)).isNull();
    }

    @Test
    void aFlagMissingOnOneProcessorIsMissing() {
        String text = cpuinfo(FLAGS_OK, FLAGS_OK.replace(" nonstop_tsc", ""));
        assertThat(TscInvariance.missingX86Flags(text)).containsExactly("nonstop_tsc");
        assertThat(TscInvariance.problem("amd64", text)).contains("nonstop_tsc").doesNotContain("constant_tsc");
    }

    @Test
    void namesEveryMissingFlag() {
        String text = cpuinfo(FLAGS_OK.replace(" constant_tsc", "").replace(" nonstop_tsc", ""));
        assertThat(TscInvariance.missingX86Flags(text)).containsExactly("constant_tsc", "nonstop_tsc");
        // "tsc" and "tsc_known_freq" must not be mistaken for the flags asked for
        assertThat(TscInvariance.commonFlags(text))
                .contains("tsc", "tsc_known_freq")
                .doesNotContain("constant_tsc");
    }

    @Test
    void noFlagsLineMeansEverythingIsMissing() {
        assertThat(TscInvariance.missingX86Flags("processor : 0\n"))
                .containsExactlyElementsOf(TscInvariance.X86_REQUIRED);
        assertThat(TscInvariance.problem("amd64", null)).contains("unreadable");
    }

    @Test
    void aarch64GenericTimerNeedsNoFlags() {
        String arm =
                "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics\n";
        assertThat(TscInvariance.problem("aarch64", arm)).isNull();
        assertThat(TscInvariance.problem("aarch64", null)).isNull();
    }

    @Test
    void otherArchitecturesHaveNoTscClock() {
        assertThat(TscInvariance.problem("riscv64", "")).contains("riscv64");
    }
}
