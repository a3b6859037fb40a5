package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * cgroup v1: CPU bandwidth in the cpu hierarchy ({@code cpu.cfs_period_us}, {@code cpu.cfs_quota_us}),
 * pinning in the separate cpuset hierarchy, whose groups need {@code cpuset.cpus} and
 * {@code cpuset.mems} set before any task may join (an empty cpuset refuses tasks with ENOSPC). Where
 * cpuacct is a hierarchy of its own, the group gets a directory there too, so that reports can give the
 * CPU time the group used ({@code cpuacct.usage}) beside its throttling.
 */
public final class CgroupV1 extends CgroupFs {

    private final Hierarchy cpu;
    private final Hierarchy cpuset;
    /** null when cpuacct shares the cpu hierarchy (its files are then in the cpu directory) or is absent. */
    private final Hierarchy cpuacct;

    CgroupV1(Path root, Path cpuMount, CgroupIo io, Proc proc) {
        super(root, io, proc);
        this.cpu = new Hierarchy("cpu", cpuMount);
        this.cpuset = new Hierarchy("cpuset", root.resolve("cpuset"));
        Path acct = root.resolve("cpuacct");
        this.cpuacct = !io.exists(cpuMount.resolve("cpuacct.usage")) && io.exists(acct.resolve("cpuacct.usage"))
                ? new Hierarchy("cpuacct", acct)
                : null;
    }

    @Override
    public String version() {
        return "v1";
    }

    @Override
    List<Hierarchy> hierarchiesFor(CgroupBandwidth bandwidth) {
        List<Hierarchy> out = new ArrayList<>(List.of(cpu));
        if (cpuacct != null) {
            out.add(cpuacct);
        }
        if (bandwidth.pinned()) {
            if (!io.exists(cpuset.mount().resolve("cpuset.cpus"))) {
                throw new SchedulingException("pinning to CPUs " + bandwidth.cpus() + " needs the cgroup v1 cpuset "
                        + "hierarchy, but " + cpuset.mount().resolve("cpuset.cpus") + " is missing");
            }
            out.add(cpuset);
        }
        return List.copyOf(out);
    }

    @Override
    List<Hierarchy> allHierarchies() {
        List<Hierarchy> out = new ArrayList<>(List.of(cpu));
        if (cpuacct != null) {
            out.add(cpuacct);
        }
        if (io.exists(cpuset.mount().resolve("cpuset.cpus"))) {
            out.add(cpuset);
        }
        return List.copyOf(out);
    }

    @Override
    Hierarchy cpuHierarchy() {
        return cpu;
    }

    @Override
    void prepareParent(Hierarchy h, Path parentDir, CgroupBandwidth bandwidth) {
        if (h.equals(cpuset)) {
            Path effective = parentDir.resolve(
                    io.exists(parentDir.resolve("cpuset.effective_cpus")) ? "cpuset.effective_cpus" : "cpuset.cpus");
            BitSet available = CpuList.parse(read(effective, "the parent's CPUs"));
            BitSet wanted = CpuList.parse(bandwidth.cpus());
            BitSet missing = (BitSet) wanted.clone();
            missing.andNot(available);
            if (!missing.isEmpty()) {
                throw new SchedulingException(
                        "cannot pin to CPUs " + bandwidth.cpus() + ": CPUs " + CpuList.format(missing) + " are not in "
                                + effective + " (" + CpuList.format(available) + ")");
            }
        }
    }

    @Override
    void configure(Hierarchy h, Path parentDir, Path dir, CgroupBandwidth bandwidth) {
        if (h.equals(cpu)) {
            // Period first: a quota is checked against the period in force when it is written.
            write(
                    dir.resolve("cpu.cfs_period_us"),
                    Long.toString(bandwidth.periodUs()),
                    "set the CPU bandwidth period");
            write(dir.resolve("cpu.cfs_quota_us"), Long.toString(bandwidth.quotaUs()), "set the CPU bandwidth quota");
        } else if (h.equals(cpuset)) {
            write(dir.resolve("cpuset.cpus"), bandwidth.cpus(), "pin the group to CPUs");
            String mems = bandwidth.mems();
            if (mems == null) {
                Path parentMems = parentDir.resolve(
                        io.exists(parentDir.resolve("cpuset.effective_mems"))
                                ? "cpuset.effective_mems"
                                : "cpuset.mems");
                mems = read(parentMems, "the parent's memory nodes");
            }
            write(dir.resolve("cpuset.mems"), mems, "set the group's memory nodes");
        }
    }

    @Override
    CpuStat stat(Map<Hierarchy, Path> dirs) {
        Path cpuDir = dirs.get(cpu);
        long usage = -1;
        Path usageFile =
                (cpuacct != null && dirs.containsKey(cpuacct) ? dirs.get(cpuacct) : cpuDir).resolve("cpuacct.usage");
        if (io.exists(usageFile)) {
            try {
                usage = Long.parseLong(io.read(usageFile).strip());
            } catch (IOException | NumberFormatException e) {
                usage = -1;
            }
        }
        return CpuStat.parse(read(cpuDir.resolve("cpu.stat"), "the group's CPU counters"), usage);
    }
}
