package org.itsrt.clock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether this host can run the TSC clock at all, for the tests' assumptions. */
final class TscHost {

    private TscHost() {}

    static String arch() {
        return System.getProperty("os.arch");
    }

    /** Why the TSC clock cannot be used here (no invariant counter), or null when it can. */
    static String problem() {
        String cpuinfo;
        try {
            cpuinfo = Files.readString(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            cpuinfo = null;
        }
        return TscInvariance.problem(arch(), cpuinfo);
    }

    /** The clock name the TSC clock reports on this architecture. */
    static String expectedName() {
        return TscInvariance.isX86(arch()) ? "tsc-rdtscp" : "cntvct";
    }
}
