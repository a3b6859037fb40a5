package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A cgroup v2 hierarchy and a procfs in plain directories, with the kernel's behaviour that the code
 * relies on (Documentation/admin-guide/cgroup-v2.rst): mkdir creates the interface files, the
 * controllers of a child are those its parent enables in cgroup.subtree_control, a write to cgroup.procs
 * moves a process (and updates /proc/PID/cgroup), a non-root group with processes cannot enable
 * controllers for children (EBUSY), rmdir refuses a group that still has processes or children, and
 * cpu.max takes "QUOTA PERIOD" or "max PERIOD".
 */
final class FakeCgroupV2 implements CgroupIo {

    final Path root;
    final Path proc;

    FakeCgroupV2(Path base) throws IOException {
        this.root = Files.createDirectories(base.resolve("cgroup"));
        this.proc = Files.createDirectories(base.resolve("proc"));
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "\n");
        Files.writeString(root.resolve("cgroup.procs"), "");
        Files.writeString(root.resolve("cpu.stat"), "usage_usec 0\nuser_usec 0\nsystem_usec 0\n");
    }

    /** A fake process with a parent, in the group at {@code cgroupPath} ("/" for the root). */
    void process(long pid, long ppid, String comm, String cgroupPath) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(
                dir.resolve("stat"),
                pid + " (" + comm + ") S " + ppid + " 1 1 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 100 0 0\n");
        Path task = Files.createDirectories(dir.resolve("task").resolve(Long.toString(pid)));
        Files.writeString(task.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("cgroup"), "0::" + cgroupPath + "\n");
        Path procs = dirOf(cgroupPath).resolve("cgroup.procs");
        Files.writeString(procs, Files.readString(procs) + pid + "\n");
    }

    Path dirOf(String cgroupPath) {
        String rel = cgroupPath.replaceAll("^/+", "");
        return rel.isEmpty() ? root : root.resolve(rel);
    }

    String cgroupOf(long pid) throws IOException {
        return Files.readString(proc.resolve(Long.toString(pid)).resolve("cgroup"))
                .strip()
                .substring(3);
    }

    List<Long> procsOf(Path dir) throws IOException {
        List<Long> out = new ArrayList<>();
        for (String line : Files.readString(dir.resolve("cgroup.procs")).split("\n")) {
            if (!line.isBlank()) {
                out.add(Long.parseLong(line.strip()));
            }
        }
        return out;
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    @Override
    public void write(Path file, String value) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString());
        }
        Path dir = file.getParent();
        switch (file.getFileName().toString()) {
            case "cgroup.procs" -> move(Long.parseLong(value.strip()), dir);
            case "cgroup.subtree_control" -> enable(dir, value.strip());
            case "cpu.max" -> {
                String[] parts = value.strip().split(" ");
                if (parts.length != 2
                        || !(parts[0].equals("max") || parts[0].matches("\\d+"))
                        || !parts[1].matches("\\d+")) {
                    throw new IOException("Invalid argument");
                }
                Files.writeString(file, value.strip() + "\n");
            }
            default -> Files.writeString(file, value.strip() + "\n");
        }
    }

    private void move(long pid, Path to) throws IOException {
        Path procDir = proc.resolve(Long.toString(pid));
        if (!Files.exists(procDir)) {
            throw new IOException("No such process");
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path procs : all.filter(p -> p.getFileName().toString().equals("cgroup.procs"))
                    .toList()) {
                List<Long> pids = procsOf(procs.getParent());
                if (pids.remove(pid)) {
                    Files.writeString(procs, join(pids));
                }
            }
        }
        List<Long> pids = procsOf(to);
        pids.add(pid);
        Files.writeString(to.resolve("cgroup.procs"), join(pids));
        String rel = root.relativize(to).toString();
        Files.writeString(procDir.resolve("cgroup"), "0::/" + rel + "\n");
    }

    private void enable(Path dir, String value) throws IOException {
        Set<String> available = words(dir.resolve("cgroup.controllers"));
        Set<String> enabled = words(dir.resolve("cgroup.subtree_control"));
        for (String token : value.split("\\s+")) {
            String controller = token.substring(1);
            if (!available.contains(controller)) {
                throw new IOException("No such file or directory");
            }
            if (!dir.equals(root) && !procsOf(dir).isEmpty()) {
                throw new IOException("Device or resource busy");
            }
            if (token.startsWith("+")) {
                enabled.add(controller);
            } else {
                enabled.remove(controller);
            }
        }
        Files.writeString(dir.resolve("cgroup.subtree_control"), String.join(" ", enabled) + "\n");
    }

    @Override
    public void mkdir(Path dir) throws IOException {
        Files.createDirectory(dir);
        Set<String> controllers = words(dir.getParent().resolve("cgroup.subtree_control"));
        Files.writeString(dir.resolve("cgroup.controllers"), String.join(" ", controllers) + "\n");
        Files.writeString(dir.resolve("cgroup.subtree_control"), "\n");
        Files.writeString(dir.resolve("cgroup.procs"), "");
        Files.writeString(dir.resolve("cpu.stat"), "usage_usec 0\nuser_usec 0\nsystem_usec 0\n");
        if (controllers.contains("cpu")) {
            Files.writeString(dir.resolve("cpu.max"), "max 100000\n");
            Files.writeString(dir.resolve("cpu.weight"), "100\n");
            Files.writeString(
                    dir.resolve("cpu.stat"),
                    "usage_usec 0\nuser_usec 0\nsystem_usec 0\n"
                            + "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n");
        }
        if (controllers.contains("cpuset")) {
            Files.writeString(dir.resolve("cpuset.cpus"), "\n");
            Files.writeString(dir.resolve("cpuset.mems"), "\n");
        }
    }

    @Override
    public void rmdir(Path dir) throws IOException {
        if (!procsOf(dir).isEmpty()) {
            throw new IOException("Device or resource busy");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            List<Path> all = entries.toList();
            if (all.stream().anyMatch(Files::isDirectory)) {
                throw new IOException("Device or resource busy");
            }
            for (Path p : all) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private static Set<String> words(Path file) throws IOException {
        String text = Files.readString(file).strip();
        return text.isEmpty() ? new LinkedHashSet<>() : new LinkedHashSet<>(Arrays.asList(text.split("\\s+")));
    }

    private static String join(List<Long> pids) {
        StringBuilder s = new StringBuilder();
        pids.forEach(p -> s.append(p).append('\n'));
        return s.toString();
    }
}
