package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * cgroup v2 (Documentation/admin-guide/cgroup-v2.rst): one hierarchy; a controller works in a group only
 * when the parent lists it in {@code cgroup.subtree_control}, which it may only when its own
 * {@code cgroup.controllers} has it. Bandwidth is {@code cpu.max} ("QUOTA PERIOD", or "max PERIOD"),
 * pinning {@code cpuset.cpus} (an empty {@code cpuset.mems} uses the parent's nodes). Outside the root,
 * a group with processes of its own cannot enable controllers for children (no internal processes), so
 * the parent should be the root or an empty group.
 */
public final class CgroupV2 extends CgroupFs {

    private final Hierarchy unified;

    CgroupV2(Path root, CgroupIo io, Proc proc) {
        super(root, io, proc);
        this.unified = new Hierarchy("", root);
    }

    @Override
    public String version() {
        return "v2";
    }

    @Override
    List<Hierarchy> hierarchiesFor(CgroupBandwidth bandwidth) {
        return List.of(unified);
    }

    @Override
    List<Hierarchy> allHierarchies() {
        return List.of(unified);
    }

    @Override
    Hierarchy cpuHierarchy() {
        return unified;
    }

    @Override
    void prepareParent(Hierarchy h, Path parentDir, CgroupBandwidth bandwidth) {
        List<String> needed = new ArrayList<>(List.of("cpu"));
        if (bandwidth.pinned()) {
            needed.add("cpuset");
        }
        Path controllersFile = parentDir.resolve("cgroup.controllers");
        List<String> available = List.of(
                read(controllersFile, "the controllers available to the parent").split("\\s+"));
        for (String controller : needed) {
            if (!available.contains(controller)) {
                throw new SchedulingException("the " + controller + " controller is not available under " + parentDir
                        + ": " + controllersFile + " lists '" + String.join(" ", available) + "'; enable it in the "
                        + "grandparent's cgroup.subtree_control, or choose another parent");
            }
        }
        Path subtree = parentDir.resolve("cgroup.subtree_control");
        List<String> enabled =
                List.of(read(subtree, "the controllers enabled for children").split("\\s+"));
        for (String controller : needed) {
            if (enabled.contains(controller)) {
                continue;
            }
            try {
                io.write(subtree, "+" + controller);
            } catch (IOException e) {
                String reason = reason(e);
                if (reason.contains("Device or resource busy")) {
                    reason += " (" + parentDir + " holds processes of its own, and cgroup v2 enables controllers "
                            + "for the children of such a group only at the root: use the root or an empty "
                            + "group as the parent)";
                }
                throw new SchedulingException(
                        "cannot enable the " + controller + " controller for children: writing '+" + controller
                                + "' to " + subtree + ": " + reason,
                        e);
            }
        }
    }

    @Override
    void configure(Hierarchy h, Path parentDir, Path dir, CgroupBandwidth bandwidth) {
        String max = (bandwidth.limited() ? Long.toString(bandwidth.quotaUs()) : "max") + " " + bandwidth.periodUs();
        write(dir.resolve("cpu.max"), max, "set the CPU bandwidth");
        if (bandwidth.pinned()) {
            write(dir.resolve("cpuset.cpus"), bandwidth.cpus(), "pin the group to CPUs");
            if (bandwidth.mems() != null) {
                write(dir.resolve("cpuset.mems"), bandwidth.mems(), "set the group's memory nodes");
            }
        }
    }

    @Override
    CpuStat stat(Map<Hierarchy, Path> dirs) {
        return CpuStat.parse(read(dirs.get(unified).resolve("cpu.stat"), "the group's CPU counters"), -1);
    }
}
