package org.itsrt.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Pins every thread of a process to a set of CPUs with {@code taskset -a}. Threads created
 * later inherit the affinity of the thread that creates them, so a JVM pinned once stays pinned.
 * One of the tail levers (docs/design.md, floors and targets): three JVMs on two CPUs otherwise
 * migrate freely.
 */
final class CpuPinning {

    /** The parts of the demo that can be pinned. */
    static final Set<String> PARTS = Set.of("broker", "flink", "clients");

    private CpuPinning() {}

    /**
     * {@code taskset -a} walks the process's threads one by one; a thread that ends meanwhile (the
     * JVM starts and stops short-lived ones) fails the walk with "No such process". The threads
     * done so far keep their new affinity, so the walk is simply repeated.
     */
    private static final int ATTEMPTS = 5;

    static void pin(String part, long pid, String cpus) {
        String output = "";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            output = taskset(part, pid, cpus);
            if (output == null) {
                return;
            }
            if (!output.contains("No such process")
                    || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                break;
            }
        }
        throw new IllegalStateException(
                "--pin " + part + "=" + cpus + ": taskset failed for pid " + pid + ": " + output);
    }

    /** Runs taskset once; null when it succeeded, else what it printed. */
    private static String taskset(String part, long pid, String cpus) {
        Process taskset;
        try {
            taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "--pin " + part + "=" + cpus + ": cannot run taskset (util-linux): " + e.getMessage(), e);
        }
        try {
            String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return taskset.waitFor() == 0 ? null : output;
        } catch (IOException e) {
            throw new IllegalStateException("--pin " + part + "=" + cpus + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pinning " + part, e);
        }
    }
}
