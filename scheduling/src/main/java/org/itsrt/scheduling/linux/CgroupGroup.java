package org.itsrt.scheduling.linux;

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
    /** Changed only by {@link #changeQuota}, under this group's lock. */
    private CgroupBandwidth bandwidth;

    private final Map<CgroupFs.Hierarchy, Path> dirs;
    /** pid -> its cgroup path per hierarchy before it was moved. */
    private final Map<Long, Map<CgroupFs.Hierarchy, String>> origins = new LinkedHashMap<>();
    /** tid -> its CPU list before pinning; cpuset moves overwrite thread affinities. */
    private final Map<Long, String> affinities = new LinkedHashMap<>();
    /** tid -> its start time, so that a thread id the kernel hands out again gets no affinity restored. */
    private final Map<Long, Long> affinityStarts = new LinkedHashMap<>();
    /** The record of this group in the ledger, rewritten before each process moves in; null for none. */
    private final BudgetLedger.Entry entry;
    /** What close() did, one line per directory: where its processes went. */
    private final List<String> restoreNotes = new ArrayList<>();

    private long treeRoot = -1;
    private boolean closed;
    private CpuStat lastStat = CpuStat.ZERO;

    private CgroupGroup(
            CgroupFs fs,
            String parent,
            String name,
            CgroupBandwidth bandwidth,
            Map<CgroupFs.Hierarchy, Path> dirs,
            BudgetLedger.Entry entry) {
        this.fs = fs;
        this.parent = parent;
        this.name = name;
        this.bandwidth = bandwidth;
        this.dirs = dirs;
        this.entry = entry;
    }

    static CgroupGroup create(CgroupFs fs, String parent, String name, CgroupBandwidth bandwidth, BudgetLedger ledger) {
        checkName(name);
        String rel = parent == null ? "" : parent.replaceAll("^/+|/+$", "");
        if (rel.contains("..")) {
            throw new IllegalArgumentException("cgroup parent '" + parent + "' must not contain '..'");
        }
        Map<CgroupFs.Hierarchy, Path> planned = new LinkedHashMap<>();
        for (CgroupFs.Hierarchy h : fs.hierarchiesFor(bandwidth)) {
            planned.put(h, (rel.isEmpty() ? h.mount() : h.mount().resolve(rel)).resolve(name));
        }
        // Written down before the first directory exists, so that a kill at any later moment leaves a
        // record that the next start finds.
        BudgetLedger.Entry entry = ledger == null
                ? null
                : ledger.open(
                        BudgetLedger.Record.CGROUP,
                        describe(fs, planned, bandwidth),
                        state(fs, rel, name, bandwidth, planned, -1, Map.of(), Map.of(), Map.of()),
                        null);
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
            boolean clean = true;
            for (Path dir : made) {
                try {
                    fs.io().rmdir(dir);
                } catch (IOException suppressed) {
                    clean = false;
                    e.addSuppressed(suppressed);
                }
            }
            if (clean && entry != null) {
                entry.remove();
            }
            throw e;
        }
        return new CgroupGroup(fs, rel, name, bandwidth, created, entry);
    }

    /**
     * A group of a budget whose JVM was killed, from its record: {@link #close()} then moves its
     * processes back where they came from and removes it, as its owner would have.
     */
    static CgroupGroup fromRecord(BudgetLedger.CgroupState state, CgroupIo io, Proc proc) {
        CgroupFs fs = CgroupFs.detect(Path.of(state.root()), io, proc);
        Map<CgroupFs.Hierarchy, Path> dirs = new LinkedHashMap<>();
        for (BudgetLedger.HierarchyDir d : state.dirs()) {
            dirs.put(new CgroupFs.Hierarchy(d.procKey(), Path.of(d.mount())), Path.of(d.dir()));
        }
        CgroupBandwidth bandwidth = new CgroupBandwidth(
                state.quotaUs() == null ? CgroupBandwidth.UNLIMITED : state.quotaUs(),
                state.periodUs(),
                state.cpus(),
                null);
        CgroupGroup group = new CgroupGroup(fs, state.parent(), state.name(), bandwidth, dirs, null);
        group.treeRoot = state.treeRoot();
        Map<String, CgroupFs.Hierarchy> byKey = new LinkedHashMap<>();
        dirs.keySet().forEach(h -> byKey.put(h.procKey(), h));
        (state.origins() == null ? Map.<Long, Map<String, String>>of() : state.origins()).forEach((pid, from) -> {
            Map<CgroupFs.Hierarchy, String> origin = new LinkedHashMap<>();
            from.forEach((key, path) -> {
                if (byKey.containsKey(key)) {
                    origin.put(byKey.get(key), path);
                }
            });
            group.origins.put(pid, origin);
        });
        for (BudgetLedger.AffinityState a :
                state.affinities() == null ? List.<BudgetLedger.AffinityState>of() : state.affinities()) {
            group.affinities.put(a.tid(), a.cpus());
            group.affinityStarts.put(a.tid(), a.startTime());
        }
        return group;
    }

    private static BudgetLedger.CgroupState state(
            CgroupFs fs,
            String parent,
            String name,
            CgroupBandwidth bandwidth,
            Map<CgroupFs.Hierarchy, Path> dirs,
            long treeRoot,
            Map<Long, Map<CgroupFs.Hierarchy, String>> origins,
            Map<Long, String> affinities,
            Map<Long, Long> affinityStarts) {
        List<BudgetLedger.HierarchyDir> hierarchyDirs = new ArrayList<>();
        dirs.forEach((h, dir) -> hierarchyDirs.add(
                new BudgetLedger.HierarchyDir(h.procKey(), h.mount().toString(), dir.toString())));
        Map<Long, Map<String, String>> from = new LinkedHashMap<>();
        origins.forEach((pid, origin) -> {
            Map<String, String> byKey = new LinkedHashMap<>();
            origin.forEach((h, path) -> byKey.put(h.procKey(), path));
            from.put(pid, byKey);
        });
        List<BudgetLedger.AffinityState> affinityStates = new ArrayList<>();
        affinities.forEach((tid, cpus) ->
                affinityStates.add(new BudgetLedger.AffinityState(tid, affinityStarts.getOrDefault(tid, -1L), cpus)));
        return new BudgetLedger.CgroupState(
                fs.version(),
                fs.root().toString(),
                parent,
                name,
                hierarchyDirs,
                bandwidth.limited() ? bandwidth.quotaUs() : null,
                bandwidth.periodUs(),
                bandwidth.cpus(),
                treeRoot,
                from,
                affinityStates);
    }

    private static String describe(CgroupFs fs, Map<CgroupFs.Hierarchy, Path> dirs, CgroupBandwidth bandwidth) {
        return "cgroup " + fs.version() + " " + dirs.values() + ": "
                + (bandwidth.limited()
                        ? bandwidth.quotaUs() + " us every " + bandwidth.periodUs() + " us"
                        : "no bandwidth limit")
                + (bandwidth.pinned() ? ", pinned to CPUs " + bandwidth.cpus() : "");
    }

    /** The record as it must read before the next change. */
    private void record() {
        if (entry != null) {
            BudgetLedger.Record r = entry.record();
            entry.update(r.with(
                    describe(fs, dirs, bandwidth),
                    state(fs, parent, name, bandwidth, dirs, treeRoot, origins, affinities, affinityStarts),
                    null));
        }
    }

    /** The bandwidth setting in the cpu hierarchy's files, for reports of what was restored. */
    String settingText() {
        String files = fs.version().equals("v2")
                ? "cpu.max \"" + (bandwidth.limited() ? bandwidth.quotaUs() : "max") + " " + bandwidth.periodUs() + "\""
                : (bandwidth.limited()
                        ? "cpu.cfs_quota_us " + bandwidth.quotaUs() + ", cpu.cfs_period_us " + bandwidth.periodUs()
                        : "no bandwidth limit");
        return files + (bandwidth.pinned() ? ", cpuset.cpus " + bandwidth.cpus() : "");
    }

    /** What the last close() did: per directory, where its processes went, or that it was already gone. */
    public synchronized List<String> restoreNotes() {
        return List.copyOf(restoreNotes);
    }

    /**
     * Removes groups named {@code PREFIX-PID-N} under the parent whose creating JVM (PID) is gone: left
     * by a run that was killed before its shutdown hook could run. Their processes move to the parent
     * (where they came from is not known any more). Groups with a record in the ledger are left to
     * {@link LeftoverRestore}, which knows where each process came from.
     *
     * @return the directories removed
     */
    static List<Path> removeStale(CgroupFs fs, String parent, String prefix, BudgetLedger ledger) {
        String rel = parent == null ? "" : parent.replaceAll("^/+|/+$", "");
        // A group with a record is the record's to restore: it knows where each process came from.
        java.util.Set<Path> recorded = new java.util.HashSet<>();
        try {
            for (BudgetLedger.Found found : ledger.records()) {
                if (found.record().cgroup() != null) {
                    found.record().cgroup().dirs().forEach(d -> recorded.add(Path.of(d.dir())));
                }
            }
        } catch (SchedulingException unreadable) {
            return List.of(); // a folder of records that cannot be read: leave everything to ./its budget restore
        }
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
                        || recorded.contains(dir)
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

    /**
     * Sets the group's quota to {@code quotaUs} per period (the period and the pinning stay), as a
     * budget that follows the load does while the processes run in it. The ledger's record says
     * the new quota before the file does, as for every other change; restoring the group (moving
     * its processes back and removing it) does not depend on the quota, so a kill between the two
     * writes leaves nothing the next start cannot undo.
     *
     * @throws IllegalArgumentException for a quota outside the kernel's limits, before anything changed
     * @throws SchedulingException when the kernel refuses the quota; the record is put back
     */
    public synchronized void changeQuota(long quotaUs) {
        ensureOpen();
        CgroupBandwidth before = bandwidth;
        // Refuses a quota the kernel would not take (CgroupBandwidth's checks) before anything is written.
        CgroupBandwidth changed = new CgroupBandwidth(quotaUs, before.periodUs(), before.cpus(), before.mems());
        if (changed.equals(before)) {
            return;
        }
        bandwidth = changed;
        record();
        CgroupFs.Hierarchy cpu = fs.cpuHierarchy();
        Path dir = dirs.get(cpu);
        try {
            fs.configure(cpu, dir.getParent(), dir, changed);
        } catch (RuntimeException e) {
            bandwidth = before;
            record();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    public String version() {
        return fs.version();
    }

    public synchronized CgroupBandwidth bandwidth() {
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
                fs.proc().cpusAllowed(t.tid()).ifPresent(list -> {
                    affinities.put(t.tid(), list);
                    affinityStarts.put(t.tid(), fs.proc().startTime(t.tid()));
                });
            }
        }
        // Recorded before the first write, so that close() knows where to return it even if a later
        // hierarchy refuses it, and in the ledger, so that the next start does if this JVM is killed.
        origins.put(pid, origin);
        record();
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
        restoreNotes.clear();
        for (Map.Entry<CgroupFs.Hierarchy, Path> e : order) {
            CgroupFs.Hierarchy h = e.getKey();
            Path dir = e.getValue();
            if (!fs.io().exists(dir)) {
                restoreNotes.add(dir + " was already removed");
                continue;
            }
            Map<Path, List<Long>> movedTo = new LinkedHashMap<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RMDIR_PATIENCE_MS);
            IOException lastFailure = null;
            while (true) {
                for (long pid : pidsIn(dir)) {
                    Path destDir = destination(h, pid);
                    Path dest = destDir.resolve("cgroup.procs");
                    try {
                        fs.io().write(dest, Long.toString(pid));
                        movedTo.computeIfAbsent(destDir, k -> new ArrayList<>()).add(pid);
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
            List<String> moves = new ArrayList<>();
            movedTo.forEach((dest, pids) -> moves.add("process(es) " + pids + " back to " + dest));
            restoreNotes.add(dir
                    + (lastFailure == null ? " removed" : " NOT removed")
                    + (moves.isEmpty() ? ", no process left in it" : ", " + String.join(", ", moves)));
        }
        restoreAffinities(problems);
        if (!problems.isEmpty()) {
            throw new SchedulingException("restoring cgroup " + name + " left problems: " + String.join("; ", problems)
                    + (entry != null ? "; its record " + entry.file() + " stays for ./its budget restore" : ""));
        }
        if (entry != null) {
            entry.remove();
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
            Long started = affinityStarts.get(tid);
            if (started != null && started >= 0 && fs.proc().startTime(tid) != started) {
                continue; // the thread exited and its id now names another one
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
