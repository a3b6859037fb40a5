package org.itsrt.sched.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A cgroup this code created (one directory per hierarchy it needs), the processes moved into it and
 * where each came from. {@link #close()} moves every process in it back (those born inside go where
 * the process tree's root came from) and removes the directories, so no group is left behind.
 */
public final class CgroupGroup implements AutoCloseable {

    /** How long close() keeps trying to remove a directory whose last tasks are still exiting. */
    private static final long RMDIR_PATIENCE_MS = 2_000;

    private static final int ATTACH_ROUNDS = 20;

    private final CgroupFs fs;
    private final String parent;
    private final String name;
    private final CgroupBandwidth bandwidth;
    private final Map<CgroupFs.Hierarchy, Path> dirs;
    /** pid -> its cgroup path per hierarchy before it was moved. */
    private final Map<Long, Map<CgroupFs.Hierarchy, String>> origins = new LinkedHashMap<>();
    /** tid -> its CPU list before pinning; cpuset moves overwrite thread affinities. */
    private final Map<Long, String> affinities = new LinkedHashMap<>();

    private long treeRoot = -1;
    private boolean closed;
    private CpuStat lastStat = CpuStat.ZERO;

    private CgroupGroup(
            CgroupFs fs, String parent, String name, CgroupBandwidth bandwidth, Map<CgroupFs.Hierarchy, Path> dirs) {
        this.fs = fs;
        this.parent = parent;
        this.name = name;
        this.bandwidth = bandwidth;
        this.dirs = dirs;
    }

    static CgroupGroup create(CgroupFs fs, String parent, String name, CgroupBandwidth bandwidth) {
        checkName(name);
        String rel = parent == null ? "" : parent.replaceAll("^/+|/+$", "");
        if (rel.contains("..")) {
            throw new IllegalArgumentException("cgroup parent '" + parent + "' must not contain '..'");
        }
        Map<CgroupFs.Hierarchy, Path> created = new LinkedHashMap<>();
        try {
            for (CgroupFs.Hierarchy h : fs.hierarchiesFor(bandwidth)) {
                Path parentDir = rel.isEmpty() ? h.mount() : h.mount().resolve(rel);
                if (!fs.io().exists(parentDir)) {
                    throw new SchedulingException("cgroup parent " + parentDir + " does not exist");
                }
                fs.prepareParent(h, parentDir, bandwidth);
                Path dir = parentDir.resolve(name);
                if (fs.io().exists(dir)) {
                    throw new SchedulingException(dir + " already exists (left by a run that was killed? move its "
                            + "tasks out and rmdir it), or choose another group name");
                }
                try {
                    fs.io().mkdir(dir);
                } catch (IOException e) {
                    throw CgroupFs.failure("cannot create the cgroup", dir, e);
                }
                created.put(h, dir);
                fs.configure(h, parentDir, dir, bandwidth);
            }
        } catch (RuntimeException e) {
            List<Path> made = new ArrayList<>(created.values());
            Collections.reverse(made);
            for (Path dir : made) {
                try {
                    fs.io().rmdir(dir);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return new CgroupGroup(fs, rel, name, bandwidth, created);
    }

    /**
     * Removes groups named {@code PREFIX-PID-N} under the parent whose creating JVM (PID) is gone: left
     * by a run that was killed before its shutdown hook could run. Their processes move to the parent
     * (where they came from is not known any more).
     *
     * @return the directories removed
     */
    static List<Path> removeStale(CgroupFs fs, String parent, String prefix) {
        String rel = parent == null ? "" : parent.replaceAll("^/+|/+$", "");
        Pattern ours = Pattern.compile(Pattern.quote(prefix) + "-(\\d+)-\\d+");
        List<Path> removed = new ArrayList<>();
        for (CgroupFs.Hierarchy h : fs.allHierarchies()) {
            Path parentDir = rel.isEmpty() ? h.mount() : h.mount().resolve(rel);
            List<Path> children;
            try (Stream<Path> list = Files.list(parentDir)) {
                children = list.filter(Files::isDirectory).toList();
            } catch (IOException e) {
                continue;
            }
            for (Path dir : children) {
                Matcher m = ours.matcher(dir.getFileName().toString());
                if (!m.matches()
                        || ProcessHandle.of(Long.parseLong(m.group(1)))
                                .map(ProcessHandle::isAlive)
                                .orElse(false)) {
                    continue;
                }
                try {
                    for (String line : fs.io().read(dir.resolve("cgroup.procs")).split("\n")) {
                        if (!line.isBlank()) {
                            try {
                                fs.io().write(parentDir.resolve("cgroup.procs"), line.strip());
                            } catch (IOException gone) {
                                // exited meanwhile
                            }
                        }
                    }
                    fs.io().rmdir(dir);
                    removed.add(dir);
                } catch (IOException e) {
                    // still busy: left for the next run, which will try again
                }
            }
        }
        return removed;
    }

    private static void checkName(String name) {
        if (name == null
                || name.isBlank()
                || name.contains("/")
                || name.startsWith(".")
                || name.startsWith("cgroup.")
                || name.matches("^(cpu|cpuset|cpuacct|memory|io|pids)\\..*")) {
            throw new IllegalArgumentException("cgroup name '" + name + "' must be one path element that is not a "
                    + "cgroup interface file name (e.g. itsrt-job)");
        }
    }

    public String name() {
        return name;
    }

    public String version() {
        return fs.version();
    }

    public CgroupBandwidth bandwidth() {
        return bandwidth;
    }

    /** The group's directory in each hierarchy (v1: cpu, and cpuset when pinned; v2: one). */
    public List<Path> dirs() {
        return List.copyOf(dirs.values());
    }

    /** The directory with the bandwidth files and cpu.stat. */
    public Path cpuDir() {
        return dirs.get(fs.cpuHierarchy());
    }

    /**
     * Moves {@code pid} and every process below it into the group. Threads go with their process;
     * children forked later are born inside. The root moves first, so a child forked meanwhile lands
     * inside too, and the tree is scanned again until no new process turns up.
     *
     * @return the processes moved
     */
    public synchronized List<Long> attachTree(long pid) {
        ensureOpen();
        if (!fs.proc().alive(pid)) {
            throw new SchedulingException("no running process " + pid + " ("
                    + fs.proc().root().resolve(Long.toString(pid)) + " is missing or a zombie)");
        }
        if (treeRoot < 0) {
            treeRoot = pid;
        }
        List<Long> moved = new ArrayList<>();
        for (int round = 0; round < ATTACH_ROUNDS; round++) {
            List<Long> tree = new ArrayList<>();
            tree.add(pid);
            tree.addAll(fs.proc().descendants(pid));
            tree.removeIf(origins::containsKey);
            if (tree.isEmpty()) {
                break;
            }
            for (long p : tree) {
                if (attach(p)) {
                    moved.add(p);
                }
            }
        }
        if (!origins.containsKey(pid)) {
            throw new SchedulingException("process " + pid + " exited before it could be moved into " + cpuDir());
        }
        return moved;
    }

    /** Moves one process (all its threads) into the group; false when it was gone. */
    public synchronized boolean attach(long pid) {
        ensureOpen();
        Map<String, String> from = fs.proc().cgroups(pid);
        if (from.isEmpty()) {
            return false;
        }
        if (treeRoot < 0) {
            treeRoot = pid;
        }
        Map<CgroupFs.Hierarchy, String> origin = new LinkedHashMap<>();
        for (CgroupFs.Hierarchy h : dirs.keySet()) {
            origin.put(h, from.getOrDefault(h.procKey(), "/"));
        }
        if (bandwidth.pinned()) {
            for (Proc.ThreadInfo t : fs.proc().threads(pid)) {
                fs.proc().cpusAllowed(t.tid()).ifPresent(list -> affinities.put(t.tid(), list));
            }
        }
        // Recorded before the first write, so that close() knows where to return it even if a later
        // hierarchy refuses it.
        origins.put(pid, origin);
        for (Map.Entry<CgroupFs.Hierarchy, Path> e : dirs.entrySet()) {
            Path procs = e.getValue().resolve("cgroup.procs");
            try {
                fs.io().write(procs, Long.toString(pid));
            } catch (IOException ex) {
                if (CgroupFs.isNoSuchProcess(ex)) {
                    return false;
                }
                throw CgroupFs.failure("cannot move process " + pid + " into the cgroup", procs, ex);
            }
        }
        return true;
    }

    /** The processes in the group now, by the cpu hierarchy's cgroup.procs. */
    public synchronized List<Long> processes() {
        if (closed) {
            return List.of();
        }
        return pidsIn(cpuDir());
    }

    /** The group's bandwidth counters now; after close, as they were just before the group was removed. */
    public synchronized CpuStat cpuStat() {
        if (closed) {
            return lastStat;
        }
        lastStat = fs.stat(dirs);
        return lastStat;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Moves every process back where it came from (or, for processes born inside, where the tree's root
     * came from; when that group is gone, to this group's parent), restores thread affinities a cpuset
     * changed, and removes the directories. Idempotent. Throws after doing all it can when a step failed.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            lastStat = fs.stat(dirs);
        } catch (RuntimeException e) {
            // the counters are a report, not a reason to leave the group behind
        }
        closed = true;
        Set<String> problems = new LinkedHashSet<>();
        List<Map.Entry<CgroupFs.Hierarchy, Path>> order = new ArrayList<>(dirs.entrySet());
        Collections.reverse(order);
        for (Map.Entry<CgroupFs.Hierarchy, Path> e : order) {
            CgroupFs.Hierarchy h = e.getKey();
            Path dir = e.getValue();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RMDIR_PATIENCE_MS);
            IOException lastFailure = null;
            while (true) {
                for (long pid : pidsIn(dir)) {
                    Path dest = destination(h, pid).resolve("cgroup.procs");
                    try {
                        fs.io().write(dest, Long.toString(pid));
                    } catch (IOException ex) {
                        if (!CgroupFs.isNoSuchProcess(ex)) {
                            lastFailure = ex;
                            problems.add("moving process " + pid + " back to " + dest + ": " + CgroupFs.reason(ex));
                        }
                    }
                }
                try {
                    fs.io().rmdir(dir);
                    lastFailure = null;
                    break;
                } catch (IOException ex) {
                    lastFailure = ex;
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
                sleep(20);
            }
            if (lastFailure != null) {
                problems.add(
                        "removing " + dir + ": " + CgroupFs.reason(lastFailure) + " (still holds " + pidsIn(dir) + ")");
            }
        }
        restoreAffinities(problems);
        if (!problems.isEmpty()) {
            throw new SchedulingException(
                    "restoring cgroup " + name + " left problems: " + String.join("; ", problems));
        }
    }

    private Path destination(CgroupFs.Hierarchy h, long pid) {
        Path parentDir = parent.isEmpty() ? h.mount() : h.mount().resolve(parent);
        for (Map<CgroupFs.Hierarchy, String> origin :
                List.of(origins.getOrDefault(pid, Map.of()), origins.getOrDefault(treeRoot, Map.of()))) {
            String path = origin.get(h);
            if (path != null) {
                String rel = path.replaceAll("^/+", "");
                Path dir = rel.isEmpty() ? h.mount() : h.mount().resolve(rel);
                if (!dir.equals(dirs.get(h)) && fs.io().exists(dir.resolve("cgroup.procs"))) {
                    return dir;
                }
            }
        }
        return parentDir;
    }

    private void restoreAffinities(Set<String> problems) {
        for (Map.Entry<Long, String> e : affinities.entrySet()) {
            long tid = e.getKey();
            String now = fs.proc().cpusAllowed(tid).orElse(null);
            if (now == null || now.equals(e.getValue())) {
                continue;
            }
            try {
                Process taskset = new ProcessBuilder("taskset", "-p", "-c", e.getValue(), Long.toString(tid))
                        .redirectErrorStream(true)
                        .start();
                String out = new String(taskset.getInputStream().readAllBytes()).strip();
                if (!taskset.waitFor(5, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                    if (fs.proc().cpusAllowed(tid).isPresent()) {
                        problems.add("restoring CPU affinity " + e.getValue() + " of thread " + tid + ": " + out);
                    }
                }
            } catch (IOException ex) {
                problems.add("restoring CPU affinity " + e.getValue() + " of thread " + tid
                        + ": taskset (util-linux) could not run: " + ex.getMessage());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                problems.add("restoring CPU affinity of thread " + tid + ": interrupted");
                return;
            }
        }
    }

    private List<Long> pidsIn(Path dir) {
        List<Long> out = new ArrayList<>();
        String text;
        try {
            text = fs.io().read(dir.resolve("cgroup.procs"));
        } catch (IOException e) {
            return out;
        }
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                out.add(Long.parseLong(line.strip()));
            }
        }
        return out;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("cgroup " + name + " is closed");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "cgroup " + fs.version() + " " + dirs.values();
    }
}
