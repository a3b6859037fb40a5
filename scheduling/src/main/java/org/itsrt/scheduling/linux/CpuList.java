package org.itsrt.scheduling.linux;

import java.util.BitSet;

/** The kernel's CPU list format ({@code 0-3,8,10-11}), as cpusets and {@code Cpus_allowed_list} use it. */
public final class CpuList {

    private CpuList() {}

    /** Parses and checks a list; the message names the part that is not a CPU number or range. */
    public static BitSet parse(String list) {
        BitSet cpus = new BitSet();
        String trimmed = list.trim();
        if (trimmed.isEmpty()) {
            return cpus;
        }
        for (String part : trimmed.split(",")) {
            String p = part.trim();
            try {
                int dash = p.indexOf('-');
                if (dash < 0) {
                    cpus.set(nonNegative(p));
                } else {
                    int from = nonNegative(p.substring(0, dash));
                    int to = nonNegative(p.substring(dash + 1));
                    if (to < from) {
                        throw new IllegalArgumentException("CPU range '" + p + "' in '" + list + "' runs backwards");
                    }
                    cpus.set(from, to + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "'" + p + "' in CPU list '" + list + "' is not a CPU number or range (expected e.g. 0-1,3)");
            }
        }
        return cpus;
    }

    /** The canonical form: ascending, ranges collapsed. */
    public static String format(BitSet cpus) {
        StringBuilder s = new StringBuilder();
        for (int from = cpus.nextSetBit(0); from >= 0; ) {
            int to = cpus.nextClearBit(from) - 1;
            s.append(s.isEmpty() ? "" : ",").append(from);
            if (to > from) {
                s.append('-').append(to);
            }
            from = cpus.nextSetBit(to + 1);
        }
        return s.toString();
    }

    private static int nonNegative(String s) {
        int v = Integer.parseInt(s.trim());
        if (v < 0) {
            throw new NumberFormatException(s);
        }
        return v;
    }
}
