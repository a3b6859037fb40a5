package org.itsrt.sched.linux;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.itsrt.sched.budget.LinuxLimits;

/** Threads of a process under SCHED_DEADLINE, each with the policy it had before. */
public final class DeadlineReservation implements AppliedBudget {

    /** One thread with a reservation: who it is, what it had, and its CPU time when it got it. */
    public record ReservedThread(long tid, String comm, Chrt.Policy original, long cpuTicksAtApply) {}

    private final long pid;
    private final DeadlineParams params;
    private final ThreadSelector selector;
    private final Chrt chrt;
    private final Proc proc;
    private final List<ReservedThread> threads = new ArrayList<>();
    private final Map<Long, Long> cpuTicksAtClose = new LinkedHashMap<>();
    private boolean closed;

    DeadlineReservation(long pid, DeadlineParams params, ThreadSelector selector, Chrt chrt, Proc proc) {
        this.pid = pid;
        this.params = params;
        this.selector = selector;
        this.chrt = chrt;
        this.proc = proc;
    }

    synchronized void add(Proc.ThreadInfo t, Chrt.Policy original, long cpuTicks) {
        threads.add(new ReservedThread(t.tid(), t.comm(), original, cpuTicks));
    }

    public synchronized List<ReservedThread> threads() {
        return List.copyOf(threads);
    }

    public DeadlineParams params() {
        return params;
    }

    @Override
    public String backend() {
        return DeadlineBackend.NAME;
    }

    @Override
    public synchronized String description() {
        return String.format(
                Locale.ROOT,
                "SCHED_DEADLINE %s (%.4f of a CPU each) on %d thread(s) of process %d (%s): %s",
                params,
                params.utilization(),
                threads.size(),
                pid,
                selector,
                threads.stream().map(t -> t.tid() + " '" + t.comm() + "'").toList());
    }

    @Override
    public synchronized Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("backend", DeadlineBackend.NAME);
        facts.put("pid", pid);
        facts.put("selector", selector.toString());
        facts.put("runtime_ns", params.runtimeNs());
        facts.put("deadline_ns", params.deadlineNs());
        facts.put("period_ns", params.periodNs());
        facts.put("utilization_per_thread", params.utilization());
        facts.put("utilization_total", params.utilization() * threads.size());
        List<Map<String, Object>> list = new ArrayList<>();
        for (ReservedThread t : threads) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tid", t.tid());
            m.put("comm", t.comm());
            m.put("policy_before", t.original().toString());
            long now = closed ? cpuTicksAtClose.getOrDefault(t.tid(), -1L) : proc.threadCpuTicks(pid, t.tid());
            m.put(
                    "cpu_ms",
                    now < 0 || t.cpuTicksAtApply() < 0
                            ? null
                            : (now - t.cpuTicksAtApply()) * 1000.0 / Proc.TICKS_PER_SECOND);
            list.add(m);
        }
        facts.put("threads", list);
        return facts;
    }

    /** Puts every thread back to the policy it had (SCHED_OTHER for a normal thread); exited ones are skipped. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        for (ReservedThread t : threads) {
            cpuTicksAtClose.put(t.tid(), proc.threadCpuTicks(pid, t.tid()));
        }
        closed = true;
        Set<String> problems = new LinkedHashSet<>();
        List<ReservedThread> reversed = new ArrayList<>(threads);
        Collections.reverse(reversed);
        for (ReservedThread t : reversed) {
            try {
                if (!t.original().isDeadline()) {
                    releaseBandwidth(t.tid());
                }
                chrt.set(t.tid(), t.original());
                Chrt.Policy now = chrt.get(t.tid());
                if (!now.name().equals(t.original().name())) {
                    problems.add("thread " + t.tid() + " reads back as " + now + ", not " + t.original());
                }
            } catch (Chrt.ChrtFailure f) {
                if (!f.noSuchProcess()) {
                    problems.add("restoring thread " + t.tid() + " '" + t.comm() + "' to " + t.original() + ": "
                            + f.output());
                }
            } catch (RuntimeException e) {
                problems.add("restoring thread " + t.tid() + ": " + e.getMessage());
            }
        }
        ShutdownRestore.unregister(this);
        if (!problems.isEmpty()) {
            throw new SchedulingException("restoring SCHED_DEADLINE threads of process " + pid + " left problems: "
                    + String.join("; ", problems));
        }
    }

    /**
     * Shrinks the thread's reservation to almost nothing before it leaves SCHED_DEADLINE. The kernel
     * returns the bandwidth of a thread that leaves SCHED_DEADLINE only at its 0-lag time, through a
     * timer it arms when the thread blocks or is preempted as a deadline task; a thread that slept the
     * whole time (a sleeping process, an idle task thread) arms none, and its bandwidth stays counted
     * against admission control, even after the thread exits, until the root domain is rebuilt (a
     * cpuset change). A change of parameters within SCHED_DEADLINE, by contrast, is accounted at once.
     * Measured on Linux 6.18 in /sys/kernel/debug/sched/debug (dl_bw->total_bw).
     */
    private void releaseBandwidth(long tid) {
        long maxUs = proc.file("sys/kernel/sched_deadline_period_max_us")
                .map(Long::parseLong)
                .orElse(LinuxLimits.DL_DEFAULT_PERIOD_MAX_US);
        long periodNs = maxUs * 1000;
        try {
            // runtime 1024 ns every ~4 s: 1024 x 2^20 / period rounds to a bandwidth of 0
            chrt.setDeadline(tid, new DeadlineParams(LinuxLimits.DL_MIN_RUNTIME_NS, periodNs, periodNs));
        } catch (Chrt.ChrtFailure | RuntimeException e) {
            // then only the plain restore below: correct, but its bandwidth stays counted a while
        }
    }

    @Override
    public String toString() {
        return "linux-deadline reservation on process " + pid;
    }
}
