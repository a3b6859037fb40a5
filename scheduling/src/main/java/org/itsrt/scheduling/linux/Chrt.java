package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread scheduling policies through util-linux's {@code chrt}: it calls sched_setattr(2) for
 * SCHED_DEADLINE, which the JDK cannot reach without native code, and its read-back ({@code chrt -p})
 * shows exactly what the kernel holds.
 */
public final class Chrt {

    private static final Pattern POLICY = Pattern.compile("scheduling policy: (\\S+)");
    private static final Pattern PRIORITY = Pattern.compile("scheduling priority: (\\d+)");
    private static final Pattern DL = Pattern.compile("runtime/deadline/period parameters: (\\d+)/(\\d+)/(\\d+)");

    private final String executable;

    public Chrt() {
        this("chrt");
    }

    public Chrt(String executable) {
        this.executable = executable;
    }

    /** A thread's policy as chrt reports it; the deadline fields are 0 unless it is SCHED_DEADLINE. */
    public record Policy(
            String name, int priority, boolean resetOnFork, long runtimeNs, long deadlineNs, long periodNs) {

        public static final Policy OTHER = new Policy("SCHED_OTHER", 0, false, 0, 0, 0);

        public boolean isDeadline() {
            return "SCHED_DEADLINE".equals(name);
        }

        @Override
        public String toString() {
            return name
                    + (resetOnFork ? "|SCHED_RESET_ON_FORK" : "")
                    + (isDeadline() ? " " + runtimeNs + "/" + deadlineNs + "/" + periodNs + " ns" : "")
                    + (priority != 0 ? " priority " + priority : "");
        }
    }

    /** chrt failed; {@link #output} is what it said (the kernel's errno text among it). */
    public static final class ChrtFailure extends Exception {
        private final String output;

        ChrtFailure(List<String> command, String output) {
            super(String.join(" ", command) + ": " + output);
            this.output = output;
        }

        public String output() {
            return output;
        }

        public boolean noSuchProcess() {
            return output.contains("No such process");
        }

        public boolean busy() {
            return output.contains("Device or resource busy");
        }

        public boolean notPermitted() {
            return output.contains("Operation not permitted");
        }
    }

    public Policy get(long tid) throws ChrtFailure {
        String out = run(List.of(executable, "-p", Long.toString(tid)));
        Matcher policy = POLICY.matcher(out);
        if (!policy.find()) {
            throw new SchedulingException("cannot read the policy of thread " + tid + " from chrt: '" + out + "'");
        }
        String[] flags = policy.group(1).split("\\|");
        boolean reset = false;
        for (int i = 1; i < flags.length; i++) {
            reset |= flags[i].equals("SCHED_RESET_ON_FORK");
        }
        Matcher prio = PRIORITY.matcher(out);
        int priority = prio.find() ? Integer.parseInt(prio.group(1)) : 0;
        Matcher dl = DL.matcher(out);
        if (dl.find()) {
            return new Policy(
                    flags[0],
                    priority,
                    reset,
                    Long.parseLong(dl.group(1)),
                    Long.parseLong(dl.group(2)),
                    Long.parseLong(dl.group(3)));
        }
        return new Policy(flags[0], priority, reset, 0, 0, 0);
    }

    public void setDeadline(long tid, DeadlineParams p) throws ChrtFailure {
        run(List.of(
                executable,
                "--deadline",
                "--sched-runtime",
                Long.toString(p.runtimeNs()),
                "--sched-period",
                Long.toString(p.periodNs()),
                "--sched-deadline",
                Long.toString(p.deadlineNs()),
                "--pid",
                "0",
                Long.toString(tid)));
    }

    /** Sets a policy read earlier with {@link #get} back on a thread. */
    public void set(long tid, Policy p) throws ChrtFailure {
        if (p.isDeadline()) {
            setDeadline(tid, new DeadlineParams(p.runtimeNs(), p.deadlineNs(), p.periodNs()));
            return;
        }
        String flag =
                switch (p.name()) {
                    case "SCHED_OTHER" -> "--other";
                    case "SCHED_BATCH" -> "--batch";
                    case "SCHED_IDLE" -> "--idle";
                    case "SCHED_FIFO" -> "--fifo";
                    case "SCHED_RR" -> "--rr";
                    default ->
                        throw new SchedulingException("cannot restore thread " + tid + " to policy " + p.name()
                                + ": chrt has no option for it");
                };
        List<String> command = new ArrayList<>(List.of(executable, flag));
        if (p.resetOnFork()) {
            command.add("--reset-on-fork");
        }
        command.addAll(List.of("--pid", Integer.toString(p.priority()), Long.toString(tid)));
        run(command);
    }

    private String run(List<String> command) throws ChrtFailure {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // The errno texts matched above are the C locale's.
        builder.environment().put("LC_ALL", "C");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new SchedulingException(
                    "cannot run " + executable + " (util-linux), which linux-deadline needs to set "
                            + "SCHED_DEADLINE: " + e.getMessage(),
                    e);
        }
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new SchedulingException(String.join(" ", command) + " did not finish within 10 s");
            }
            if (process.exitValue() != 0) {
                throw new ChrtFailure(command, out);
            }
            return out;
        } catch (IOException e) {
            throw new SchedulingException(
                    "reading the output of " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new SchedulingException(String.join(" ", command) + " was interrupted", e);
        }
    }
}
