package org.itsrt.scheduling.linux;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.itsrt.scheduling.budget.LinuxLimits;

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
    /** The record in the ledger: every thread about to get a reservation, with its policy before. */
    private final BudgetLedger.Entry entry;

    private final List<BudgetLedger.ThreadState> recorded = new ArrayList<>();
    private boolean closed;

    DeadlineReservation(
            long pid, DeadlineParams params, ThreadSelector selector, Chrt chrt, Proc proc, BudgetLedger.Entry entry) {
        this.pid = pid;
        this.params = params;
        this.selector = selector;
        this.chrt = chrt;
        this.proc = proc;
        this.entry = entry;
    }

    /** The ledger's record for a budget about to be applied to {@code pid}'s threads (none yet). */
    static BudgetLedger.DeadlineState state(long pid, long pidStartTime, DeadlineParams params) {
        return new BudgetLedger.DeadlineState(
                pid, pidStartTime, params.runtimeNs(), params.deadlineNs(), params.periodNs(), List.of());
    }

    /** Written down before the thread's policy changes, so that the next start restores it if this JVM is killed. */
    synchronized void aboutToSet(Proc.ThreadInfo t, Chrt.Policy original) {
        if (entry == null) {
            return;
        }
        recorded.add(new BudgetLedger.ThreadState(
                t.tid(), t.comm(), proc.threadStartTime(pid, t.tid()), BudgetLedger.PolicyState.of(original)));
        BudgetLedger.Record r = entry.record();
        BudgetLedger.DeadlineState s = r.deadline();
        entry.update(r.with(
                "SCHED_DEADLINE " + params + " on thread(s) "
                        + recorded.stream()
                                .map(x -> x.tid() + " '" + x.comm() + "'")
                                .toList()
                        + " of process " + pid + " (" + selector + ")",
                null,
                new BudgetLedger.DeadlineState(
                        s.pid(),
                        s.pidStartTime(),
                        s.runtimeNs(),
                        s.deadlineNs(),
                        s.periodNs(),
                        List.copyOf(recorded))));
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
            String problem = restoreThread(chrt, proc, t.tid(), t.comm(), t.original());
            if (problem != null) {
                problems.add(problem);
            }
        }
        ShutdownRestore.unregister(this);
        if (!problems.isEmpty()) {
            throw new SchedulingException("restoring SCHED_DEADLINE threads of process " + pid + " left problems: "
                    + String.join("; ", problems)
                    + (entry != null ? "; its record " + entry.file() + " stays for ./its budget restore" : ""));
        }
        if (entry != null) {
            entry.remove();
        }
    }

    /** Puts one thread back to its policy; null when done (or the thread is gone), else what went wrong. */
    private static String restoreThread(Chrt chrt, Proc proc, long tid, String comm, Chrt.Policy original) {
        try {
            if (!original.isDeadline()) {
                releaseBandwidth(chrt, proc, tid);
            }
            chrt.set(tid, original);
            Chrt.Policy now = chrt.get(tid);
            if (!now.name().equals(original.name())) {
                return "thread " + tid + " reads back as " + now + ", not " + original;
            }
            return null;
        } catch (Chrt.ChrtFailure f) {
            return f.noSuchProcess()
                    ? null
                    : "restoring thread " + tid + " '" + comm + "' to " + original + ": " + f.output();
        } catch (RuntimeException e) {
            return "restoring thread " + tid + ": " + e.getMessage();
        }
    }

    /**
     * Restores the threads a killed JVM's record describes: each one that still runs (the same thread:
     * its start time matches) and still has the reservation the record set goes back to its policy.
     *
     * @return one line per thread: what was restored, or why nothing needed to be
     * @throws SchedulingException naming the threads that could not be restored
     */
    static List<String> restoreRecord(BudgetLedger.DeadlineState state, Chrt chrt, Proc proc) {
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String set = state.runtimeNs() + "/" + state.deadlineNs() + "/" + state.periodNs() + " ns";
        if (!proc.sameProcess(state.pid(), state.pidStartTime())) {
            lines.add("process " + state.pid() + " has exited: its threads' SCHED_DEADLINE " + set
                    + " went with it, nothing to restore");
            return lines;
        }
        List<BudgetLedger.ThreadState> reversed =
                new ArrayList<>(state.threads() == null ? List.of() : state.threads());
        Collections.reverse(reversed);
        for (BudgetLedger.ThreadState t : reversed) {
            String who = "thread " + t.tid() + " '" + t.comm() + "' of process " + state.pid();
            long started = proc.threadStartTime(state.pid(), t.tid());
            if (started < 0) {
                lines.add(who + " has exited: nothing to restore");
                continue;
            }
            if (started != t.startTime()) {
                lines.add(who + " has exited and its id names another thread now: left as it is");
                continue;
            }
            Chrt.Policy now;
            try {
                now = chrt.get(t.tid());
            } catch (Chrt.ChrtFailure f) {
                if (f.noSuchProcess()) {
                    lines.add(who + " has exited: nothing to restore");
                } else {
                    problems.add("reading the policy of " + who + ": " + f.output());
                }
                continue;
            }
            if (!now.isDeadline()
                    || now.runtimeNs() != state.runtimeNs()
                    || now.deadlineNs() != state.deadlineNs()
                    || now.periodNs() != state.periodNs()) {
                lines.add(who + " is " + now + ", not the SCHED_DEADLINE " + set + " that was set: left as it is");
                continue;
            }
            Chrt.Policy before = t.before().policy();
            String problem = restoreThread(chrt, proc, t.tid(), t.comm(), before);
            if (problem != null) {
                problems.add(problem);
            } else {
                lines.add(who + ": SCHED_DEADLINE " + set + " back to " + before);
            }
        }
        if (!problems.isEmpty()) {
            throw new SchedulingException(String.join("; ", problems));
        }
        return lines;
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
    private static void releaseBandwidth(Chrt chrt, Proc proc, long tid) {
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
