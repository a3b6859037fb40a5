package org.itsrt.scheduling.linux;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A load that competes with the job for CPU or for the disk: a child JVM spinning N threads, or writing
 * and fsyncing a temporary file. Placed in a cgroup of its own beside the job's (a sibling under the same
 * parent), optionally pinned to CPUs, so that the job's budget is tested against real contention and
 * the load's share can be read apart. {@link #close()} stops it, removes its group and its file.
 */
public final class InterferenceLoad implements AutoCloseable {

    public enum Kind {
        CPU,
        IO
    }

    /**
     * @param threads busy threads of a CPU load (1 for I/O)
     * @param cpus a CPU list to pin the load to, or null
     * @param ioDir where an I/O load writes its file (its disk is the one loaded), or null for the
     *              system's temporary directory
     */
    public record Spec(Kind kind, int threads, String cpus, Path ioDir) {
        public Spec {
            if (kind == Kind.CPU && threads < 1) {
                throw new IllegalArgumentException("a CPU load needs at least one thread, got " + threads);
            }
            if (cpus != null) {
                cpus = CpuList.format(CpuList.parse(cpus));
            }
        }

        public static Spec cpu(int threads) {
            return new Spec(Kind.CPU, threads, null, null);
        }

        public static Spec io(Path dir) {
            return new Spec(Kind.IO, 1, null, dir);
        }

        public Spec pinnedTo(String cpuList) {
            return new Spec(kind, threads, cpuList, ioDir);
        }
    }

    public static final String DEFAULT_NAME_PREFIX = "itsrt-load";
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final long START_TIMEOUT_S = 60;

    private final Spec spec;
    private final Process process;
    private final BufferedReader out;
    private final CgroupGroup group;
    private final Path file;
    private final long startNanos;
    private final long startTicks;
    private final Proc proc;
    private String summary;
    private long cpuTicksAtStop = -1;
    private long stoppedNanos;
    private boolean closed;

    private InterferenceLoad(Spec spec, Process process, BufferedReader out, CgroupGroup group, Path file, Proc proc) {
        this.spec = spec;
        this.process = process;
        this.out = out;
        this.group = group;
        this.file = file;
        this.proc = proc;
        this.startNanos = System.nanoTime();
        this.startTicks = proc.cpuTicks(process.pid());
    }

    /** Starts a load in no cgroup of its own (pinned with taskset when the spec names CPUs). */
    public static InterferenceLoad start(Spec spec) {
        return start(spec, null, "");
    }

    /**
     * Starts a load in a new cgroup under {@code parent} (the same parent as the job's group makes them
     * siblings), with no bandwidth limit, pinned when the spec names CPUs.
     *
     * @param fs the cgroups to use, or null to place the load in none
     */
    public static InterferenceLoad start(Spec spec, CgroupFs fs, String parent) {
        Path file = null;
        CgroupGroup group = null;
        Process process = null;
        try {
            if (spec.kind() == Kind.IO) {
                Path dir = spec.ioDir() != null ? spec.ioDir() : Path.of(System.getProperty("java.io.tmpdir"));
                file = Files.createTempFile(dir, "itsrt-io-load-", ".bin");
            }
            if (fs != null) {
                for (Path stale : fs.removeStale(parent, DEFAULT_NAME_PREFIX)) {
                    System.err.println("itsrt-sched: removed " + stale + ", left by a run that was killed before it "
                            + "could clean up");
                }
                CgroupBandwidth bw = CgroupBandwidth.unlimited();
                group = fs.create(
                        parent,
                        DEFAULT_NAME_PREFIX + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet(),
                        spec.cpus() == null ? bw : bw.pinnedTo(spec.cpus()));
            }
            List<String> command = new ArrayList<>();
            if (fs == null && spec.cpus() != null) {
                command.addAll(List.of("taskset", "-c", spec.cpus()));
            }
            command.addAll(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx32m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    codeSource(),
                    LoadMain.class.getName(),
                    spec.kind() == Kind.CPU ? "cpu" : "io",
                    spec.kind() == Kind.CPU ? Integer.toString(spec.threads()) : file.toString()));
            process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
            expect(reader, "ready", command);
            if (group != null) {
                group.attachTree(process.pid());
            }
            OutputStream stdin = process.getOutputStream();
            stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            expect(reader, "running", command);
            InterferenceLoad load = new InterferenceLoad(spec, process, reader, group, file, Proc.SYSTEM);
            ShutdownRestore.register(load);
            return load;
        } catch (IOException | RuntimeException e) {
            if (process != null) {
                process.destroyForcibly();
                try {
                    process.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
            if (group != null) {
                try {
                    group.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            deleteQuietly(file);
            if (e instanceof SchedulingException se) {
                throw se;
            }
            throw new SchedulingException(
                    "cannot start the " + spec.kind().name().toLowerCase() + " load: " + e.getMessage(), e);
        }
    }

    private static void expect(BufferedReader reader, String word, List<String> command) throws IOException {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String got;
        try {
            got = line.get(START_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IOException(
                    String.join(" ", command) + " did not say '" + word + "' within " + START_TIMEOUT_S + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the load");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
        if (!word.equals(got)) {
            throw new IOException(String.join(" ", command) + " said '" + got + "' instead of '" + word + "'");
        }
    }

    private static String codeSource() {
        try {
            return Path.of(LoadMain.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException | NullPointerException e) {
            return System.getProperty("java.class.path");
        }
    }

    public long pid() {
        return process.pid();
    }

    public Spec spec() {
        return spec;
    }

    public Optional<CgroupGroup> group() {
        return Optional.ofNullable(group);
    }

    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    public synchronized boolean isRunning() {
        return !closed && process.isAlive();
    }

    /** What ran where, and the CPU time it used (until now, or until it stopped). */
    public synchronized Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("kind", spec.kind().name().toLowerCase());
        facts.put("threads", spec.threads());
        facts.put("cpus", spec.cpus());
        facts.put("pid", process.pid());
        facts.put(
                "cgroup_dirs",
                group == null
                        ? null
                        : group.dirs().stream().map(Object::toString).toList());
        facts.put("file", file == null ? null : file.toString());
        long ticks = closed ? cpuTicksAtStop : proc.cpuTicks(process.pid());
        facts.put("cpu_ms", ticks < 0 || startTicks < 0 ? null : (ticks - startTicks) * 1000.0 / Proc.TICKS_PER_SECOND);
        facts.put("elapsed_ms", ((closed ? stoppedNanos : System.nanoTime()) - startNanos) / 1e6);
        facts.put("summary", summary);
        return facts;
    }

    /** Stops the load (stdin closed, then SIGKILL after 5 s), removes its cgroup and its file. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        cpuTicksAtStop = proc.cpuTicks(process.pid());
        stoppedNanos = System.nanoTime();
        closed = true;
        try {
            process.getOutputStream().close();
            CompletableFuture<String> last = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            });
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            summary = last.get(2, TimeUnit.SECONDS);
        } catch (IOException | ExecutionException | TimeoutException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            if (group != null) {
                group.close();
            }
        } finally {
            deleteQuietly(file);
            ShutdownRestore.unregister(this);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file: the system's cleanup gets it
            }
        }
    }

    @Override
    public String toString() {
        return spec.kind().name().toLowerCase() + " load, process " + process.pid();
    }
}
