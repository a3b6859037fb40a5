package org.itsrt.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Pins every thread of a process to a set of CPUs with {@code taskset -a}. Threads created
 * later inherit the affinity of the thread that creates them, so a JVM pinned once stays pinned.
 * One of the tail levers (REFERENCE section 6): three JVMs on two CPUs otherwise migrate freely.
 */
final class CpuPinning {

    /** The parts of the demo that can be pinned. */
    static final Set<String> PARTS = Set.of("broker", "flink", "clients");

    private CpuPinning() {
    }

    static void pin(String part, long pid, String cpus) {
        Process taskset;
        try {
            taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid))
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("--pin " + part + "=" + cpus + ": cannot run taskset (util-linux): "
                    + e.getMessage(), e);
        }
        try {
            String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (taskset.waitFor() != 0) {
                throw new IllegalStateException("--pin " + part + "=" + cpus + ": taskset failed for pid " + pid + ": "
                        + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("--pin " + part + "=" + cpus + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pinning " + part, e);
        }
    }
}
