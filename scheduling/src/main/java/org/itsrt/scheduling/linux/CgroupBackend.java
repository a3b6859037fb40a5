package org.itsrt.scheduling.linux;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code linux-cgroup}: the whole process tree (every thread of the JVM, GC and JIT included, and any
 * child it starts later) in a new cgroup with a CPU bandwidth quota per period, optionally pinned to
 * CPUs. The Linux counterpart of a capped domain: a budget for a group, not a delay bound per thread.
 */
public final class CgroupBackend implements CpuBudgetBackend {

    public static final String NAME = "linux-cgroup";
    public static final String DEFAULT_NAME_PREFIX = "itsrt-job";

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final CgroupFs fs;
    private final String parent;
    private final String namePrefix;
    private final CgroupBandwidth bandwidth;
    private final BudgetLedger ledger;

    /** On this system's cgroups, a group directly under the hierarchy root. */
    public CgroupBackend(CgroupBandwidth bandwidth) {
        this(CgroupFs.detect(), "", DEFAULT_NAME_PREFIX, bandwidth);
    }

    /**
     * @param parent the parent group relative to the hierarchy root, "" for the root (on v2 it must be
     *               the root or a group without processes of its own)
     * @param namePrefix the group is named PREFIX-OWNPID-N, unique per JVM
     */
    public CgroupBackend(CgroupFs fs, String parent, String namePrefix, CgroupBandwidth bandwidth) {
        this(fs, parent, namePrefix, bandwidth, BudgetLedger.system());
    }

    /**
     * @param ledger where the group is recorded before it is created, so that the next start restores it
     *               if this JVM is killed; null records nothing
     */
    public CgroupBackend(
            CgroupFs fs, String parent, String namePrefix, CgroupBandwidth bandwidth, BudgetLedger ledger) {
        this.fs = fs;
        this.parent = parent;
        this.namePrefix = namePrefix;
        this.bandwidth = bandwidth;
        this.ledger = ledger;
    }

    @Override
    public String name() {
        return NAME;
    }

    public CgroupBandwidth bandwidth() {
        return bandwidth;
    }

    @Override
    public CgroupReservation apply(long pid) {
        for (Path stale : fs.removeStale(parent, namePrefix, ledger != null ? ledger : BudgetLedger.system())) {
            System.err.println(
                    "itsrt-sched: removed " + stale + ", left by a run that was killed before it could restore");
        }
        String name = namePrefix + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
        CgroupGroup group = fs.create(parent, name, bandwidth, ledger);
        CgroupReservation reservation = new CgroupReservation(group, pid);
        ShutdownRestore.register(reservation);
        try {
            reservation.attach();
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
}
