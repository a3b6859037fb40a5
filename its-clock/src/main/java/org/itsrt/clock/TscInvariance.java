package org.itsrt.clock;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether the counter ticks at one constant rate on every core, whatever the power state: the
 * condition for turning ticks into nanoseconds with a single frequency.
 *
 * <p>x86-64 needs {@code constant_tsc} (rate independent of P-states) and {@code nonstop_tsc}
 * (keeps counting in deep C-states), and {@code rdtscp} for the instruction itself, all from the
 * {@code flags} lines of {@code /proc/cpuinfo}. A flag counts only when every processor lists it.
 * The aarch64 generic timer runs at a fixed frequency by architecture, so it needs no flags.
 */
final class TscInvariance {

    static final List<String> X86_REQUIRED = List.of("constant_tsc", "nonstop_tsc", "rdtscp");

    private TscInvariance() {}

    static boolean isX86(String osArch) {
        String a = osArch.toLowerCase(Locale.ROOT);
        return a.equals("amd64") || a.equals("x86_64");
    }

    static boolean isAarch64(String osArch) {
        String a = osArch.toLowerCase(Locale.ROOT);
        return a.equals("aarch64") || a.equals("arm64");
    }

    /** The flags every processor in {@code cpuinfo} lists (x86 {@code flags :} lines). */
    static Set<String> commonFlags(String cpuinfo) {
        Set<String> common = null;
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || !line.substring(0, colon).trim().equals("flags")) {
                continue;
            }
            Set<String> flags = new LinkedHashSet<>();
            for (String f : line.substring(colon + 1).trim().split("\\s+")) {
                if (!f.isEmpty()) {
                    flags.add(f);
                }
            }
            if (common == null) {
                common = flags;
            } else {
                common.retainAll(flags);
            }
        }
        return common == null ? Set.of() : common;
    }

    /** The required flags {@code cpuinfo} lacks, in {@link #X86_REQUIRED} order. */
    static List<String> missingX86Flags(String cpuinfo) {
        Set<String> flags = commonFlags(cpuinfo);
        List<String> missing = new ArrayList<>();
        for (String f : X86_REQUIRED) {
            if (!flags.contains(f)) {
                missing.add(f);
            }
        }
        return missing;
    }

    /**
     * Why the counter is not usable as an invariant clock on {@code osArch}, or null when it is.
     *
     * @param cpuinfo the text of {@code /proc/cpuinfo}; only read on x86-64
     */
    static String problem(String osArch, String cpuinfo) {
        if (isAarch64(osArch)) {
            return null;
        }
        if (!isX86(osArch)) {
            return "no TSC clock for architecture " + osArch + " (only amd64 and aarch64)";
        }
        if (cpuinfo == null) {
            return "TSC invariance unknown: /proc/cpuinfo is unreadable";
        }
        List<String> missing = missingX86Flags(cpuinfo);
        if (missing.isEmpty()) {
            return null;
        }
        return "TSC not usable: /proc/cpuinfo flags lack " + String.join(", ", missing);
    }
}
