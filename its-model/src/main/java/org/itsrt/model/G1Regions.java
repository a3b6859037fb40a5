package org.itsrt.model;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * G1 allocates an array larger than half a heap region as a humongous object: at the start of
 * a region of its own, and never moved afterwards. {@link PackedMatrix} sizes its array so,
 * because its 64-byte alignment depends on where the array starts.
 */
final class G1Regions {

    private G1Regions() {}

    /** The smallest float[] length G1 allocates as a humongous object; 0 when the JVM does not run G1. */
    static int humongousFloats() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotSpot == null
                    || !Boolean.parseBoolean(hotSpot.getVMOption("UseG1GC").getValue())) {
                return 0;
            }
            long regionBytes =
                    Long.parseLong(hotSpot.getVMOption("G1HeapRegionSize").getValue());
            return (int) Math.min(Integer.MAX_VALUE - 64, regionBytes / 2 / Float.BYTES + 16);
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }
}
