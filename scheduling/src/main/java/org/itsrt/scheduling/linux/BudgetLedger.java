package org.itsrt.scheduling.linux;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Where every budget this code applies is written down before it takes effect, so that one whose
 * JVM was killed (kill -9, an OOM kill: no shutdown hook runs) is found and restored by the next
 * start. One JSON file per applied budget, named {@code KIND-PID-N.json}, holding the owner (pid
 * and start time, so that a pid the kernel hands out again is not taken for the owner), what was
 * changed and the value before. The file is rewritten before each further change (a process moved
 * into a group, a thread given a reservation) and removed when the budget is restored.
 *
 * <p>The folder: {@value #DIR_PROPERTY} (system property) or {@value #DIR_ENV} (environment) when
 * set; else {@code /run/its-rt/budgets} for root (/run is cleared at boot, as are the cgroups and
 * thread policies the files describe), else {@code $XDG_RUNTIME_DIR/its-rt/budgets}, else
 * {@code java.io.tmpdir/its-rt-USER/budgets}.
 */
public final class BudgetLedger {

    public static final String DIR_PROPERTY = "itsrt.budget.state.dir";
    public static final String DIR_ENV = "ITS_BUDGET_STATE_DIR";
    static final int FORMAT = 1;

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private final Path dir;
    private final Proc proc;

    public BudgetLedger(Path dir, Proc proc) {
        this.dir = dir;
        this.proc = proc;
    }

    /** The ledger of this machine, in the folder the property, the environment or the user gives. */
    public static BudgetLedger system() {
        return new BudgetLedger(defaultDir(Proc.SYSTEM), Proc.SYSTEM);
    }

    static Path defaultDir(Proc proc) {
        String property = System.getProperty(DIR_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv(DIR_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        if (proc.effectiveUid() == 0) {
            return Path.of("/run/its-rt/budgets");
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank() && Files.isDirectory(Path.of(runtime))) {
            return Path.of(runtime, "its-rt", "budgets");
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "its-rt-" + System.getProperty("user.name"), "budgets");
    }

    public Path dir() {
        return dir;
    }

    Proc proc() {
        return proc;
    }

    /** The JVM that applies a budget: its pid, its start time, and what it was started as. */
    public record Owner(long pid, long startTime, String command) {}

    /** A policy as {@link Chrt.Policy} holds it, in the file. */
    public record PolicyState(
            String name, int priority, boolean resetOnFork, long runtimeNs, long deadlineNs, long periodNs) {

        static PolicyState of(Chrt.Policy p) {
            return new PolicyState(
                    p.name(), p.priority(), p.resetOnFork(), p.runtimeNs(), p.deadlineNs(), p.periodNs());
        }

        Chrt.Policy policy() {
            return new Chrt.Policy(name, priority, resetOnFork, runtimeNs, deadlineNs, periodNs);
        }
    }

    /**
     * A group's directory in one hierarchy.
     *
     * @param procKey the hierarchy as /proc/PID/cgroup names it ("cpu", "cpuset", "" for v2)
     * @param mount the hierarchy's root
     * @param dir the group's directory
     */
    public record HierarchyDir(String procKey, String mount, String dir) {}

    /** A thread's CPU affinity before a cpuset changed it, with the thread's start time. */
    public record AffinityState(long tid, long startTime, String cpus) {}

    /**
     * A cgroup this code made: where, with what bandwidth, and where each process moved into it came
     * from (per hierarchy, as /proc/PID/cgroup gave it).
     */
    public record CgroupState(
            String version,
            String root,
            String parent,
            String name,
            List<HierarchyDir> dirs,
            Long quotaUs,
            long periodUs,
            String cpus,
            long treeRoot,
            Map<Long, Map<String, String>> origins,
            List<AffinityState> affinities) {}

    /** A thread given a reservation, and the policy it had. */
    public record ThreadState(long tid, String comm, long startTime, PolicyState before) {}

    /** SCHED_DEADLINE reservations on threads of one process. */
    public record DeadlineState(
            long pid, long pidStartTime, long runtimeNs, long deadlineNs, long periodNs, List<ThreadState> threads) {}

    /** One file: one applied budget. Exactly one of cgroup and deadline is set. */
    public record Record(
            int format,
            String kind,
            Owner owner,
            String created,
            String description,
            CgroupState cgroup,
            DeadlineState deadline) {

        public static final String CGROUP = "cgroup";
        public static final String DEADLINE = "deadline";

        Record with(String newDescription, CgroupState newCgroup, DeadlineState newDeadline) {
            return new Record(format, kind, owner, created, newDescription, newCgroup, newDeadline);
        }
    }

    /** A record read back, with its file. */
    public record Found(Path file, Record record) {}

    /**
     * A record that stays in the ledger while its budget is in force: {@link #update} before each
     * further change, {@link #remove} once restored.
     */
    public final class Entry {
        private final Path file;
        private Record record;
        private boolean removed;

        private Entry(Path file, Record record) {
            this.file = file;
            this.record = record;
        }

        public Path file() {
            return file;
        }

        public synchronized Record record() {
            return record;
        }

        public synchronized void update(Record changed) {
            if (removed) {
                return;
            }
            record = changed;
            write(file, changed);
        }

        /** The budget is restored: nothing is left to find. */
        public synchronized void remove() {
            if (removed) {
                return;
            }
            removed = true;
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new SchedulingException("cannot remove the record of a restored budget " + file + ": "
                        + e.getMessage() + " (delete it by hand; ./its budget restore would find nothing to restore "
                        + "in what it describes)");
            }
        }
    }

    /** The owner record of this JVM. */
    Owner self() {
        long pid = ProcessHandle.current().pid();
        String command = ProcessHandle.current().info().commandLine().orElse(proc.commandLine(pid));
        return new Owner(pid, proc.startTime(pid), shorten(command));
    }

    private static String shorten(String command) {
        // The class path makes a java command line kilobytes long; the main class and arguments say what it was.
        String shortened = command.replaceAll("(-cp|-classpath|--class-path) \\S+", "$1 ...");
        return shortened.length() > 300 ? shortened.substring(0, 300) + "..." : shortened;
    }

    /** Writes a new record (before the change it describes), owned by this JVM. */
    Entry open(String kind, String description, CgroupState cgroup, DeadlineState deadline) {
        Owner owner = self();
        Path file = dir.resolve(kind + "-" + owner.pid() + "-" + SEQUENCE.incrementAndGet() + ".json");
        Record record = new Record(FORMAT, kind, owner, Instant.now().toString(), description, cgroup, deadline);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new SchedulingException("cannot create " + dir + ", where applied budgets are recorded so that a "
                    + "killed run's are restored: " + e.getMessage() + " (set -D" + DIR_PROPERTY + " or " + DIR_ENV
                    + " to a writable folder)");
        }
        write(file, record);
        return new Entry(file, record);
    }

    private void write(Path file, Record record) {
        Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
        try {
            JSON.writeValue(temporary.toFile(), record);
            try {
                // A reader (the next start) sees the old record or the new one, never half of one.
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new SchedulingException("cannot record the budget in " + file + " before applying it: "
                    + e.getMessage() + " (set -D" + DIR_PROPERTY + " or " + DIR_ENV + " to a writable folder)");
        }
    }

    /** Every record in the folder, oldest first; a file that is not a record is an error naming it. */
    public List<Found> records() {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".json")
                            && !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new SchedulingException("cannot list " + dir + ", the folder of applied budgets: " + e.getMessage());
        }
        List<Found> out = new ArrayList<>();
        for (Path file : files) {
            Record record;
            try {
                record = JSON.readValue(file.toFile(), Record.class);
            } catch (NoSuchFileException gone) {
                continue; // restored by its owner meanwhile
            } catch (IOException e) {
                throw new SchedulingException(file + " is not a record of an applied budget (" + e.getMessage()
                        + "): look at it, restore what it describes by hand if anything, and delete it");
            }
            if (record.owner() == null || (record.cgroup() == null) == (record.deadline() == null)) {
                throw new SchedulingException(file + " is not a record of an applied budget (it needs an owner and "
                        + "either a cgroup or a deadline part): look at it, restore what it describes by hand if "
                        + "anything, and delete it");
            }
            out.add(new Found(file, record));
        }
        out.sort((a, b) -> String.valueOf(a.record().created())
                .compareTo(String.valueOf(b.record().created())));
        return out;
    }

    /** Whether the record's owner still runs: the same pid with the same start time. */
    public boolean ownerAlive(Record record) {
        return proc.sameProcess(record.owner().pid(), record.owner().startTime());
    }

    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new SchedulingException("restored what " + file + " describes but cannot delete it: " + e.getMessage()
                    + "; delete it by hand");
        }
    }
}
