package org.itsrt.scheduling.linux;

/**
 * A way to give a running process a CPU budget: {@code none}, {@code linux-cgroup} or
 * {@code linux-deadline}. The experiment runner applies one to the job's process before a run and
 * closes what it got back after it.
 */
public interface CpuBudgetBackend {

    /** The backend's name as experiment files spell it. */
    String name();

    /**
     * Applies the budget to the process (what of it depends on the backend: its whole tree, or some of
     * its threads). Registers a JVM shutdown hook that restores it if the JVM exits first.
     *
     * @throws SchedulingException naming the missing file, privilege or the kernel's refusal
     */
    AppliedBudget apply(long pid);
}
