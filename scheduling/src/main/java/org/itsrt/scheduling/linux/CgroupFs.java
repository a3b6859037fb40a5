package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A cgroup file system with a CPU controller: v2 (one unified hierarchy, {@code cpu.max}) or v1 (a cpu
 * hierarchy with {@code cpu.cfs_quota_us}/{@code cpu.cfs_period_us}, and a separate cpuset hierarchy).
 * {@link #detect(Path, CgroupIo, Proc)} tells them apart; {@link #create} makes a group in every
 * hierarchy the bandwidth needs.
 */
public abstract sealed class CgroupFs permits CgroupV1, CgroupV2 {

    public static final Path DEFAULT_ROOT = Path.of("/sys/fs/cgroup");

    /**
     * One hierarchy a group lives in.
     *
     * @param procKey how /proc/PID/cgroup names it: a v1 controller ("cpu", "cpuset") or "" for v2
     * @param mount the hierarchy's root directory
     */
    record Hierarchy(String procKey, Path mount) {}

    protected final Path root;
    protected final CgroupIo io;
    protected final Proc proc;

    CgroupFs(Path root, CgroupIo io, Proc proc) {
        this.root = root;
        this.io = io;
        this.proc = proc;
    }

    /** The system's cgroups under /sys/fs/cgroup. */
    public static CgroupFs detect() {
        return detect(DEFAULT_ROOT, CgroupIo.SYSTEM, Proc.SYSTEM);
    }

    /**
     * v2 when the root is a unified hierarchy whose cgroup.controllers lists cpu; v1 when the root holds
     * a cpu hierarchy with CFS bandwidth files. A hybrid layout (v1 controllers plus a v2 mount without
     * controllers, e.g. at root/unified) is v1.
     */
    public static CgroupFs detect(Path root, CgroupIo io, Proc proc) {
        Path controllers = root.resolve("cgroup.controllers");
        String v2Controllers = null;
        if (io.exists(controllers)) {
            try {
                v2Controllers = io.read(controllers).strip();
            } catch (IOException e) {
                throw failure("cannot read", controllers, e);
            }
            if (List.of(v2Controllers.split("\\s+")).contains("cpu")) {
                return new CgroupV2(root, io, proc);
            }
        }
        for (String name : List.of("cpu", "cpu,cpuacct", "cpuacct,cpu")) {
            Path mount = root.resolve(name);
            if (io.exists(mount.resolve("cpu.cfs_quota_us"))) {
                return new CgroupV1(root, mount, io, proc);
            }
            if (io.exists(mount.resolve("cpu.shares"))) {
                throw new SchedulingException(mount + " is a cgroup v1 cpu hierarchy without cpu.cfs_quota_us: "
                        + "this kernel has no CFS bandwidth control (CONFIG_CFS_BANDWIDTH)");
            }
        }
        if (v2Controllers != null) {
            throw new SchedulingException(root + " is a cgroup v2 hierarchy but its cgroup.controllers ('"
                    + v2Controllers + "') has no cpu controller, and there is no v1 cpu hierarchy at "
                    + root.resolve("cpu") + ": the cpu controller is not available to this system");
        }
        throw new SchedulingException("no cgroup CPU controller under " + root + ": expected " + controllers
                + " listing cpu (cgroup v2) or " + root.resolve("cpu").resolve("cpu.cfs_quota_us")
                + " (cgroup v1); is the cgroup file system mounted there?");
    }

    /** "v1" or "v2". */
    public abstract String version();

    public Path root() {
        return root;
    }

    CgroupIo io() {
        return io;
    }

    Proc proc() {
        return proc;
    }

    /**
     * Creates the group {@code parent/name} in every hierarchy the bandwidth needs and sets it up, ready
     * for processes to be attached. Nothing is left behind when this fails.
     *
     * @param parent a path relative to the hierarchy roots; "" for the roots themselves
     */
    public CgroupGroup create(String parent, String name, CgroupBandwidth bandwidth) {
        return create(parent, name, bandwidth, BudgetLedger.system());
    }

    /**
     * The same, recorded in {@code ledger} (before anything is created) so that the next start restores
     * it if this JVM is killed; null records nothing.
     */
    public CgroupGroup create(String parent, String name, CgroupBandwidth bandwidth, BudgetLedger ledger) {
        return CgroupGroup.create(this, parent, name, bandwidth, ledger);
    }

    abstract List<Hierarchy> hierarchiesFor(CgroupBandwidth bandwidth);

    /** Every hierarchy a group of this code may have a directory in. */
    abstract List<Hierarchy> allHierarchies();

    /**
     * Removes groups {@code PREFIX-PID-N} under the parent whose creating JVM is gone (a run killed
     * before its shutdown hook ran), moving their processes to the parent.
     *
     * @return the directories removed
     */
    public List<Path> removeStale(String parent, String prefix) {
        return removeStale(parent, prefix, BudgetLedger.system());
    }

    /** The same, leaving the groups that {@code ledger} has records of to {@link LeftoverRestore}. */
    public List<Path> removeStale(String parent, String prefix, BudgetLedger ledger) {
        return CgroupGroup.removeStale(this, parent, prefix, ledger);
    }

    /** The hierarchy whose directory holds the CPU bandwidth files and cpu.stat. */
    abstract Hierarchy cpuHierarchy();

    /** Makes the parent able to hold a group with these settings (v2: enables controllers for children). */
    abstract void prepareParent(Hierarchy h, Path parentDir, CgroupBandwidth bandwidth);

    /** Writes the settings into a freshly created group directory, before any process joins. */
    abstract void configure(Hierarchy h, Path parentDir, Path dir, CgroupBandwidth bandwidth);

    /** The group's counters, from its directories per hierarchy. */
    abstract CpuStat stat(Map<Hierarchy, Path> dirs);

    /** A write of a kernel interface file, failing with the file and the kernel's reason. */
    void write(Path file, String value, String what) {
        if (!io.exists(file)) {
            throw new SchedulingException("cannot " + what + ": " + file + " is missing (expected a cgroup " + version()
                    + " interface file there)");
        }
        try {
            io.write(file, value);
        } catch (IOException e) {
            throw failure("cannot " + what + " (writing '" + value + "')", file, e);
        }
    }

    String read(Path file, String what) {
        try {
            return io.read(file).strip();
        } catch (IOException e) {
            throw failure("cannot read " + what, file, e);
        }
    }

    static SchedulingException failure(String what, Path file, IOException e) {
        return new SchedulingException(what + ": " + file + ": " + reason(e), e);
    }

    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (needs root, or write access to this file)";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        String message = e.getMessage();
        if (message != null && message.contains("Operation not permitted")) {
            return message + " (needs root, or CAP_SYS_ADMIN over this cgroup)";
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }

    static boolean isNoSuchProcess(IOException e) {
        return e.getMessage() != null && e.getMessage().contains("No such process");
    }
}
