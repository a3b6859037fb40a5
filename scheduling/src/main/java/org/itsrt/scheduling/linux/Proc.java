package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the backends read from procfs: process trees, threads and their names, cgroup membership, CPU
 * time. The root is a parameter so that tests can stand up a fake one.
 */
public final class Proc {

    public static final Proc SYSTEM = new Proc(Path.of("/proc"));

    /** USER_HZ: the unit of utime and stime in /proc/PID/stat, 100 on every Linux architecture in use. */
    public static final long TICKS_PER_SECOND = 100;

    private final Path root;

    public Proc(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** A thread of a process: its id and its name as the kernel keeps it (15 characters at most). */
    public record ThreadInfo(long tid, String comm) {}

    /** Running or sleeping; a zombie has exited and counts as gone. */
    public boolean alive(long pid) {
        Optional<String[]> stat = stat(root.resolve(Long.toString(pid)).resolve("stat"));
        return stat.isPresent() && !"Z".equals(stat.get()[0]) && !"X".equals(stat.get()[0]);
    }

    /**
     * Every process below {@code pid}, parents before children. procfs lists children only with
     * CONFIG_PROC_CHILDREN, so the tree is built from every process's parent id.
     */
    public List<Long> descendants(long pid) {
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, Proc::isNumeric)) {
            for (Path entry : entries) {
                stat(entry.resolve("stat"))
                        .ifPresent(fields -> children.computeIfAbsent(Long.parseLong(fields[1]), k -> new ArrayList<>())
                                .add(Long.parseLong(entry.getFileName().toString())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        List<Long> out = new ArrayList<>();
        Deque<Long> queue = new ArrayDeque<>(children.getOrDefault(pid, List.of()));
        while (!queue.isEmpty()) {
            long p = queue.removeFirst();
            out.add(p);
            queue.addAll(children.getOrDefault(p, List.of()));
        }
        return out;
    }

    /**
     * The process's cgroup per controller from /proc/PID/cgroup: v1 lines ({@code 4:cpu,cpuacct:/a})
     * give one entry per controller named, the v2 line ({@code 0::/a}) the key "". Empty when the
     * process is gone.
     */
    public Map<String, String> cgroups(long pid) {
        Map<String, String> out = new LinkedHashMap<>();
        Optional<String> text = read(root.resolve(Long.toString(pid)).resolve("cgroup"));
        if (text.isEmpty()) {
            return out;
        }
        for (String line : text.get().split("\n")) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            if (parts[1].isEmpty()) {
                out.put("", parts[2]);
            } else {
                for (String controller : parts[1].split(",")) {
                    out.put(controller, parts[2]);
                }
            }
        }
        return out;
    }

    /** The threads of a process, by thread id; empty when it is gone. */
    public List<ThreadInfo> threads(long pid) {
        List<ThreadInfo> out = new ArrayList<>();
        Path tasks = root.resolve(Long.toString(pid)).resolve("task");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tasks, Proc::isNumeric)) {
            for (Path entry : entries) {
                read(entry.resolve("comm"))
                        .ifPresent(comm -> out.add(new ThreadInfo(
                                Long.parseLong(entry.getFileName().toString()), comm.strip())));
            }
        } catch (NoSuchFileException gone) {
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tasks, e);
        }
        out.sort((a, b) -> Long.compare(a.tid(), b.tid()));
        return out;
    }

    /** utime + stime of the whole process (all its threads), in clock ticks; -1 when it is gone. */
    public long cpuTicks(long pid) {
        return stat(root.resolve(Long.toString(pid)).resolve("stat"))
                .map(f -> Long.parseLong(f[11]) + Long.parseLong(f[12]))
                .orElse(-1L);
    }

    /**
     * When the process started, in clock ticks after boot (/proc/PID/stat field 22); -1 when it is gone.
     * A pid and its start time name one process for good: a pid the kernel hands out again comes
     * with a later start time.
     */
    public long startTime(long pid) {
        return stat(root.resolve(Long.toString(pid)).resolve("stat"))
                .map(f -> Long.parseLong(f[19]))
                .orElse(-1L);
    }

    /** When a thread of a process started (its task's stat field 22); -1 when it is gone. */
    public long threadStartTime(long pid, long tid) {
        return stat(root.resolve(Long.toString(pid))
                        .resolve("task")
                        .resolve(Long.toString(tid))
                        .resolve("stat"))
                .map(f -> Long.parseLong(f[19]))
                .orElse(-1L);
    }

    /** Alive (not a zombie) and started at {@code startTime}: the same process, not a later one with its pid. */
    public boolean sameProcess(long pid, long startTime) {
        return alive(pid) && startTime(pid) == startTime;
    }

    /** The effective user id of this process, from /proc/self/status; -1 when unreadable. */
    public long effectiveUid() {
        return read(root.resolve("self").resolve("status"))
                .flatMap(status -> status.lines()
                        .filter(l -> l.startsWith("Uid:"))
                        .map(l -> Long.parseLong(l.split("\\s+")[2]))
                        .findFirst())
                .orElse(-1L);
    }

    /** The process's command line with spaces between arguments; empty when it is gone. */
    public String commandLine(long pid) {
        return read(root.resolve(Long.toString(pid)).resolve("cmdline"))
                .map(s -> s.replace('\0', ' ').strip())
                .orElse("");
    }

    /** utime + stime of one thread, in clock ticks; -1 when it is gone. */
    public long threadCpuTicks(long pid, long tid) {
        return stat(root.resolve(Long.toString(pid))
                        .resolve("task")
                        .resolve(Long.toString(tid))
                        .resolve("stat"))
                .map(f -> Long.parseLong(f[11]) + Long.parseLong(f[12]))
                .orElse(-1L);
    }

    /** The thread's CPU affinity as a CPU list, from its status file; empty when it is gone. */
    public Optional<String> cpusAllowed(long tid) {
        return read(root.resolve(Long.toString(tid)).resolve("status")).flatMap(status -> status.lines()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring("Cpus_allowed_list:".length()).strip())
                .findFirst());
    }

    /** The scheduling policy number the kernel reports for a thread (6 = SCHED_DEADLINE), or -1. */
    public int policy(long pid, long tid) {
        Optional<String> sched = read(root.resolve(Long.toString(pid))
                .resolve("task")
                .resolve(Long.toString(tid))
                .resolve("sched"));
        return sched.flatMap(s -> s.lines()
                        .filter(l -> l.startsWith("policy"))
                        .map(l ->
                                Integer.parseInt(l.substring(l.indexOf(':') + 1).strip()))
                        .findFirst())
                .orElse(-1);
    }

    /** Process ids of every process, for scans over the whole system. */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, Proc::isNumeric)) {
            entries.forEach(e -> out.add(Long.parseLong(e.getFileName().toString())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        return out;
    }

    /** A file under the proc root (e.g. {@code sys/kernel/sched_rt_runtime_us}), if readable. */
    public Optional<String> file(String relative) {
        return read(root.resolve(relative)).map(String::strip);
    }

    /** The fields after the command name: [0] state, [1] ppid, ... [11] utime, [12] stime. */
    private static Optional<String[]> stat(Path file) {
        return read(file).map(text -> {
            // The command name is in parentheses and may itself hold spaces and parentheses.
            int close = text.lastIndexOf(')');
            return text.substring(close + 2).trim().split(" ");
        });
    }

    private static Optional<String> read(Path file) {
        // Not Files.readString: it reads files that report size 0 one byte first, and sysctl files under
        // /proc/sys answer a read at a nonzero offset with EOF, so "100" would come back as "1".
        try (InputStream in = Files.newInputStream(file)) {
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        } catch (IOException e) {
            // A process that exits while being read makes its files fail with ESRCH.
            return Optional.empty();
        }
    }

    private static boolean isNumeric(Path p) {
        String name = p.getFileName().toString();
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
