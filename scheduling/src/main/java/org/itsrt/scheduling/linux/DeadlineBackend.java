package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.itsrt.scheduling.budget.LinuxLimits;

/**
 * {@code linux-deadline}: a SCHED_DEADLINE reservation (runtime every period, by a deadline) for each
 * selected thread of a process: the Linux counterpart of an RTDS vCPU, per thread. It covers only the
 * threads selected at apply time: GC, JIT compiler and threads started later run as before, with what
 * the reserved threads leave. A SCHED_DEADLINE thread cannot fork (fork returns EAGAIN), so select
 * threads that do not start processes.
 */
public final class DeadlineBackend implements CpuBudgetBackend {

    public static final String NAME = "linux-deadline";

    private final DeadlineParams params;
    private final ThreadSelector selector;
    private final Chrt chrt;
    private final Proc proc;
    private final Path cpusOnline;
    private final BudgetLedger ledger;

    public DeadlineBackend(DeadlineParams params, ThreadSelector selector) {
        this(params, selector, new Chrt(), Proc.SYSTEM, Path.of("/sys/devices/system/cpu/online"));
    }

    public DeadlineBackend(DeadlineParams params, ThreadSelector selector, Chrt chrt, Proc proc, Path cpusOnline) {
        this(params, selector, chrt, proc, cpusOnline, BudgetLedger.system());
    }

    /**
     * @param ledger where each reservation is recorded before it takes effect, so that the next start
     *               restores it if this JVM is killed; null records nothing
     */
    public DeadlineBackend(
            DeadlineParams params,
            ThreadSelector selector,
            Chrt chrt,
            Proc proc,
            Path cpusOnline,
            BudgetLedger ledger) {
        this.params = params;
        this.selector = selector;
        this.chrt = chrt;
        this.proc = proc;
        this.cpusOnline = cpusOnline;
        this.ledger = ledger;
    }

    @Override
    public String name() {
        return NAME;
    }

    public DeadlineParams params() {
        return params;
    }

    @Override
    public DeadlineReservation apply(long pid) {
        if (!proc.alive(pid)) {
            throw new SchedulingException("no running process " + pid + " ("
                    + proc.root().resolve(Long.toString(pid)) + " is missing or a zombie)");
        }
        checkPeriodLimits();
        List<Proc.ThreadInfo> threads = proc.threads(pid);
        List<Proc.ThreadInfo> selected = selector.select(threads);
        if (selected.isEmpty()) {
            List<String> names = threads.stream()
                    .map(Proc.ThreadInfo::comm)
                    .distinct()
                    .limit(60)
                    .toList();
            throw new SchedulingException("no thread of process " + pid + " has a name matching " + selector
                    + "; its thread names (/proc/" + pid + "/task/*/comm, 15 characters at most): " + names);
        }
        BudgetLedger.Entry entry = ledger == null
                ? null
                : ledger.open(
                        BudgetLedger.Record.DEADLINE,
                        "SCHED_DEADLINE " + params + " on threads of process " + pid + " (" + selector + ")",
                        null,
                        DeadlineReservation.state(pid, proc.startTime(pid), params));
        DeadlineReservation reservation = new DeadlineReservation(pid, params, selector, chrt, proc, entry);
        ShutdownRestore.register(reservation);
        try {
            for (Proc.ThreadInfo t : selected) {
                applyTo(reservation, pid, t, selected.size());
            }
            if (reservation.threads().isEmpty()) {
                throw new SchedulingException(
                        "every selected thread of process " + pid + " exited before it got its " + "reservation");
            }
        } catch (RuntimeException e) {
            try {
                reservation.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return reservation;
    }

    private void applyTo(DeadlineReservation reservation, long pid, Proc.ThreadInfo t, int selectedCount) {
        Chrt.Policy original;
        try {
            original = chrt.get(t.tid());
        } catch (Chrt.ChrtFailure f) {
            if (f.noSuchProcess()) {
                return;
            }
            throw new SchedulingException(
                    "cannot read the policy of thread " + t.tid() + " '" + t.comm() + "': " + f.output());
        }
        long ticks = proc.threadCpuTicks(pid, t.tid());
        reservation.aboutToSet(t, original);
        try {
            chrt.setDeadline(t.tid(), params);
        } catch (Chrt.ChrtFailure f) {
            if (f.noSuchProcess()) {
                return;
            }
            throw explain(f, pid, t, selectedCount, reservation);
        }
        reservation.add(t, original, ticks);
        Chrt.Policy now;
        try {
            now = chrt.get(t.tid());
        } catch (Chrt.ChrtFailure f) {
            if (f.noSuchProcess()) {
                return;
            }
            throw new SchedulingException("cannot read back the policy of thread " + t.tid() + ": " + f.output());
        }
        if (!now.isDeadline()
                || now.runtimeNs() != params.runtimeNs()
                || now.deadlineNs() != params.deadlineNs()
                || now.periodNs() != params.periodNs()) {
            throw new SchedulingException("thread " + t.tid() + " '" + t.comm() + "' reads back as " + now
                    + " after setting SCHED_DEADLINE " + params);
        }
    }

    private SchedulingException explain(
            Chrt.ChrtFailure f, long pid, Proc.ThreadInfo t, int selectedCount, DeadlineReservation reservation) {
        String who = "thread " + t.tid() + " '" + t.comm() + "' of process " + pid;
        if (f.busy()) {
            return admission(who, selectedCount, reservation);
        }
        if (f.notPermitted()) {
            String affinity = proc.cpusAllowed(t.tid()).orElse("?");
            return new SchedulingException("setting SCHED_DEADLINE on " + who + " was not permitted (EPERM): it needs "
                    + "root or CAP_SYS_NICE, and the thread's CPU affinity (Cpus_allowed_list " + affinity
                    + ") must span its whole root domain (online CPUs "
                    + onlineCpus().map(CpuList::format).orElse("?")
                    + "); chrt said: " + f.output());
        }
        if (f.output().contains("Invalid argument")) {
            return new SchedulingException("the kernel rejected SCHED_DEADLINE " + params + " for " + who
                    + " (EINVAL): check runtime <= deadline <= period and the period against "
                    + "kernel.sched_deadline_period_min_us/max_us; chrt said: " + f.output());
        }
        return new SchedulingException("setting SCHED_DEADLINE " + params + " on " + who + " failed: " + f.output());
    }

    private DeadlineAdmissionException admission(String who, int selectedCount, DeadlineReservation reservation) {
        long runtime =
                proc.file("sys/kernel/sched_rt_runtime_us").map(Long::parseLong).orElse(950_000L);
        long period =
                proc.file("sys/kernel/sched_rt_period_us").map(Long::parseLong).orElse(1_000_000L);
        int cpus = onlineCpus()
                .map(BitSet::cardinality)
                .orElse(Runtime.getRuntime().availableProcessors());
        double limit = runtime < 0 ? Double.POSITIVE_INFINITY : (double) runtime / period * cpus;
        double requested = selectedCount * params.utilization();
        Set<Long> ours = new HashSet<>();
        reservation.threads().forEach(a -> ours.add(a.tid()));
        double others = 0;
        int otherThreads = 0;
        for (long p : proc.pids()) {
            for (Proc.ThreadInfo t : proc.threads(p)) {
                if (!ours.contains(t.tid()) && proc.policy(p, t.tid()) == 6) {
                    try {
                        Chrt.Policy policy = chrt.get(t.tid());
                        if (policy.isDeadline() && policy.periodNs() > 0) {
                            others += (double) policy.runtimeNs() / policy.periodNs();
                            otherThreads++;
                        }
                    } catch (Chrt.ChrtFailure | RuntimeException gone) {
                        // exited meanwhile
                    }
                }
            }
        }
        String message = String.format(
                Locale.ROOT,
                "the kernel refused SCHED_DEADLINE for %s (EBUSY, admission control): this reservation asks %d "
                        + "thread(s) x %.4f (runtime/period %s) = %.4f CPUs, other deadline threads already hold "
                        + "%.4f CPUs (%d thread(s)) besides what the kernel counts without a thread to show (its own "
                        + "deadline servers, e.g. 5%% of each CPU for the fair class on recent kernels, and threads that "
                        + "left SCHED_DEADLINE while asleep, until a cpuset change rebuilds the accounting), and the "
                        + "kernel admits at most %s CPUs in all (%s); %d of the "
                        + "%d thread(s) were admitted before the refusal and are restored. Lower the runtime, select "
                        + "fewer threads, or raise /proc/sys/kernel/sched_rt_runtime_us",
                who,
                selectedCount,
                params.utilization(),
                params,
                requested,
                others,
                otherThreads,
                runtime < 0 ? "unlimited" : String.format(Locale.ROOT, "%.4f", limit),
                runtime < 0
                        ? "kernel.sched_rt_runtime_us is -1"
                        : String.format(
                                Locale.ROOT,
                                "kernel.sched_rt_runtime_us %d / sched_rt_period_us %d x %d CPUs",
                                runtime,
                                period,
                                cpus),
                reservation.threads().size(),
                selectedCount);
        return new DeadlineAdmissionException(message, requested, others, limit);
    }

    private void checkPeriodLimits() {
        long min = proc.file("sys/kernel/sched_deadline_period_min_us")
                .map(Long::parseLong)
                .orElse(LinuxLimits.DL_DEFAULT_PERIOD_MIN_US);
        long max = proc.file("sys/kernel/sched_deadline_period_max_us")
                .map(Long::parseLong)
                .orElse(LinuxLimits.DL_DEFAULT_PERIOD_MAX_US);
        String problem =
                LinuxLimits.deadlineProblem(params.runtimeNs(), params.deadlineNs(), params.periodNs(), min, max);
        if (problem != null) {
            throw new SchedulingException(problem);
        }
    }

    private Optional<BitSet> onlineCpus() {
        try {
            try (InputStream in = Files.newInputStream(cpusOnline)) {
                return Optional.of(CpuList.parse(new String(in.readAllBytes(), StandardCharsets.US_ASCII)));
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
