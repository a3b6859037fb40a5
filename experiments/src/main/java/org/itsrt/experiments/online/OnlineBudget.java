package org.itsrt.experiments.online;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.linux.CgroupBackend;
import org.itsrt.scheduling.linux.CgroupReservation;
import org.itsrt.scheduling.linux.CpuStat;
import org.itsrt.scheduling.linux.LinuxBackends;

/**
 * A cgroup CPU budget on the job's process that follows the load (iTune's observer): applied at
 * the controller's ceiling once the job is live, then every {@code interval} the latency of what
 * arrived ({@link LiveLatency}) and the group's CPU counters go to the {@link BudgetController},
 * and its budget is written to the group. Every change is recorded in the budget ledger before it
 * is written ({@code CgroupReservation#changeQuota}); closing restores the process to where it was
 * and removes the group, as after any budget, and a kill -9 of this JVM leaves a record that the
 * next start (or {@code ./its budget restore}) undoes.
 */
public final class OnlineBudget implements BudgetHook {

    private final BudgetController controller;
    private final long periodUs;
    private final int vcpus;
    private final String cpus;
    private final Duration interval;
    private final PrintStream log;
    private final LiveLatency latency = new LiveLatency();
    private final List<OnlineStep> steps = new ArrayList<>();
    private final Map<String, Object> facts = new LinkedHashMap<>();

    /**
     * @param vcpus    the CPUs of the group: its quota is {@code vcpus} x the budget per period
     * @param cpus     a cpuset to pin the group to; null for none
     * @param interval how often the budget is decided
     */
    public OnlineBudget(
            BudgetController controller, long periodUs, int vcpus, String cpus, Duration interval, PrintStream log) {
        if (interval.toMillis() < 100) {
            throw new IllegalArgumentException("the controller's interval must be at least 100 ms, got " + interval);
        }
        this.controller = controller;
        this.periodUs = periodUs;
        this.vcpus = vcpus;
        this.cpus = cpus;
        this.interval = interval;
        this.log = log;
    }

    @Override
    public ArrivalSink arrivals() {
        return latency;
    }

    @Override
    public AutoCloseable jobLive(OptionalLong clusterPid) {
        long pid = clusterPid.orElseThrow(() -> new IllegalStateException(
                "the job's tasks run in no process known to this host: nothing to put a budget on"));
        CgroupBackend backend = LinuxBackends.cgroup(new Reservation(controller.budgetUs(), periodUs), vcpus, cpus);
        CgroupReservation group = backend.apply(pid);
        log.println("online budget: applied " + group.description() + "; deciding every "
                + org.itsrt.cli.Durations.format(interval));
        Control control = new Control(group);
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "online-budget");
            t.setDaemon(true);
            return t;
        });
        latency.take(); // what arrived before the budget is not the budget's doing
        ticks.scheduleAtFixedRate(control::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return () -> {
            ticks.shutdown();
            if (!ticks.awaitTermination(30, TimeUnit.SECONDS)) {
                ticks.shutdownNow();
            }
            synchronized (facts) {
                facts.putAll(group.facts());
            }
            group.close();
            log.println("online budget: restored ("
                    + String.join("; ", group.group().restoreNotes()) + ")");
        };
    }

    /** The intervals so far, in order. */
    public List<OnlineStep> steps() {
        synchronized (steps) {
            return List.copyOf(steps);
        }
    }

    /** What the group was (directories, final counters), once restored. */
    public Map<String, Object> facts() {
        synchronized (facts) {
            // The group's facts hold nulls (no quota when unlimited), which Map.copyOf refuses.
            return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        }
    }

    public BudgetController.Settings settings() {
        return controller.settings();
    }

    public Duration interval() {
        return interval;
    }

    public long periodUs() {
        return periodUs;
    }

    public int vcpus() {
        return vcpus;
    }

    /** One applied budget's loop: runs on the controller's thread only. */
    private final class Control {
        private final CgroupReservation group;
        private final long startNs = System.nanoTime();
        private long lastNs = startNs;
        private CpuStat lastStat;
        private boolean failed;

        Control(CgroupReservation group) {
            this.group = group;
            this.lastStat = group.cpuStat();
        }

        void tick() {
            try {
                step();
            } catch (RuntimeException e) {
                // The budget in force stays until the run ends and is restored then; a controller
                // that cannot read or write the group must not end the run.
                if (!failed) {
                    log.println("online budget: stopped following the load: " + e.getMessage());
                }
                failed = true;
            }
        }

        private void step() {
            if (failed) {
                return;
            }
            long now = System.nanoTime();
            double seconds = (now - lastNs) / 1e9;
            lastNs = now;
            LiveLatency.Interval arrived = latency.take();
            CpuStat stat = group.cpuStat();
            CpuStat delta = stat.minus(lastStat);
            lastStat = stat;
            long inForce = controller.budgetUs();
            double throttledShare = delta.nrPeriods() > 0 ? (double) delta.nrThrottled() / delta.nrPeriods() : 0;
            double usedCpus = stat.usageNs() < 0 ? Double.NaN : delta.usageNs() / 1e9 / seconds;
            // In the budget's unit: microseconds per CPU of the group per period.
            double usedUs = usedCpus / vcpus * periodUs;
            BudgetController.Decision decision =
                    controller.next(arrived.records(), seconds, arrived.p99Ms(), throttledShare, usedUs);
            if (decision.budgetUs() != inForce) {
                group.changeQuota(decision.budgetUs() * vcpus);
            }
            OnlineStep row = new OnlineStep(
                    (now - startNs) / 1e9,
                    inForce,
                    decision.budgetUs(),
                    periodUs,
                    arrived.records(),
                    arrived.records() / seconds,
                    arrived.p50Ms(),
                    arrived.p99Ms(),
                    arrived.maxMs(),
                    throttledShare,
                    usedCpus,
                    decision.action(),
                    decision.why());
            synchronized (steps) {
                steps.add(row);
            }
            log.printf(
                    Locale.ROOT,
                    "online budget: %5.0f s  %,7.0f records/s  p99 %7.2f ms  throttled %3.0f%%  budget %,d us (%.1f%%)%s%n",
                    row.seconds(),
                    row.recordsPerS(),
                    row.p99Ms(),
                    row.throttledShare() * 100,
                    inForce,
                    row.cpuShare() * 100,
                    decision.budgetUs() != inForce
                            ? String.format(
                                    Locale.ROOT,
                                    " -> %,d us: %s (%s)",
                                    decision.budgetUs(),
                                    decision.action()
                                            .name()
                                            .toLowerCase(Locale.ROOT)
                                            .replace('_', ' '),
                                    decision.why())
                            : "");
        }
    }
}
