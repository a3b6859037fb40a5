package org.itsrt.pipeline.profile;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.RunResult;

/**
 * Profiles every JVM of a measured run from the first record sent to the last one measured: a
 * {@link LoadHook} that samples each process's CPU time ({@link CpuSampler}) and, at the end,
 * dumps each JVM's flight recording into the run's {@code profile/} folder; {@link
 * #write(RunResult)} then writes {@code profile.md} ({@link ProfileReport}).
 *
 * <p>The child JVMs (broker, JobManager, TaskManagers) must have been started with {@link
 * #JVM_OPTION}: their recording runs from their start, is dumped with {@code jcmd PID JFR.dump},
 * and the report counts only the events of the measured window. This JVM (producers and probe)
 * records through {@link Recording} from the load's start, with the same {@code profile} settings.
 */
public final class Profiler implements LoadHook {

    /** The name of the recording in every child JVM, which {@code JFR.dump} asks for. */
    public static final String RECORDING = "its-profile";

    /**
     * How a child JVM records: JFR's {@code profile} settings (execution samples every 10 ms,
     * allocation samples, GC), each thread's CPU load every second instead of every 10 s (it is
     * the only view of a thread's kernel time, and a step lasts tens of seconds), kept for an hour
     * so a long sweep step is still whole at its dump.
     */
    public static final String JVM_OPTION =
            "-XX:StartFlightRecording=name=" + RECORDING + ",settings=profile,jdk.ThreadCPULoad#period=1s,maxage=1h";

    /** The name of this JVM in the report. */
    public static final String THIS_JVM = "demo (producers, probe)";

    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(1);
    private static final Duration DUMP_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Map<String, Long> children;
    private final Duration warmup;
    private final PrintStream log;
    private volatile Window window;

    /** What one profiled load gave: its window, the CPU samples, the flight recordings. */
    record Window(Instant start, Instant end, List<CpuSampler.Sample> samples, Map<String, Path> recordings) {}

    /**
     * @param dir      the profile folder (created); recordings, {@code cpu.csv} and {@code profile.md} go here
     * @param children the run's other JVMs on this host by name (broker, jobmanager, taskmanager-1, ...),
     *                 each started with {@link #JVM_OPTION}
     * @param warmup   the start of the load left out of the "after warm-up" figures, as the probe does
     */
    public Profiler(Path dir, Map<String, Long> children, Duration warmup, PrintStream log) {
        this.dir = dir;
        this.children = new LinkedHashMap<>(children);
        this.warmup = warmup;
        this.log = log;
    }

    @Override
    public AutoCloseable loadStarting(FaultMarks marks) throws IOException {
        Files.createDirectories(dir);
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put(THIS_JVM, ProcessHandle.current().pid());
        pids.putAll(children);
        Recording own;
        try {
            own = new Recording(Configuration.getConfiguration("profile"));
        } catch (java.text.ParseException e) {
            throw new IOException("the JDK's JFR 'profile' settings could not be read: " + e.getMessage(), e);
        }
        own.setName(RECORDING);
        own.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofSeconds(1));
        own.start();
        CpuSampler sampler = CpuSampler.start(pids, SAMPLE_EVERY);
        Instant start = Instant.now();
        log.println("its-demo: profiling " + pids.keySet() + " (JFR, CPU time) into " + dir);
        return () -> {
            sampler.close();
            Instant end = Instant.now();
            Map<String, Path> recordings = new LinkedHashMap<>();
            Path ownFile = dir.resolve(fileName(THIS_JVM));
            own.stop();
            own.dump(ownFile);
            own.close();
            recordings.put(THIS_JVM, ownFile);
            children.forEach((name, pid) -> {
                Path file = dir.resolve(fileName(name)).toAbsolutePath();
                String failed = dump(pid, file);
                if (failed == null) {
                    recordings.put(name, file);
                } else {
                    log.println("its-demo: no flight recording of " + name + " (pid " + pid + "): " + failed);
                }
            });
            window = new Window(start, end, sampler.samples(), recordings);
        };
    }

    /** {@code jcmd PID JFR.dump}; null when it worked, else why not. */
    static String dump(long pid, Path file) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        List<String> command = List.of(
                Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd",
                Long.toString(pid),
                "JFR.dump",
                "name=" + RECORDING,
                "filename=" + file);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(DUMP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "jcmd did not return within " + DUMP_TIMEOUT.toSeconds() + " s";
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(file)) {
                return "jcmd exited " + p.exitValue() + ": " + new String(out).strip();
            }
            return null;
        } catch (IOException e) {
            return "could not run jcmd: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * The end of the measured load: when the probe stopped reading, not when the hook closed,
     * which is after the probe wrote its report and plots (seconds of this JVM's CPU that are
     * not the pipeline's).
     */
    static Instant loadEnd(Instant hookClosed, String probeEnded) {
        try {
            Instant ended = Instant.parse(probeEnded);
            return ended.isBefore(hookClosed) ? ended : hookClosed;
        } catch (RuntimeException e) {
            return hookClosed;
        }
    }

    static String fileName(String jvm) {
        return jvm.replaceAll("[^A-Za-z0-9-]+", "-").replaceAll("-+$", "") + ".jfr";
    }

    /**
     * Writes {@code cpu.csv} and {@code profile.md} for the load profiled last; does nothing
     * when no load started (the run failed before its producers did).
     *
     * @return the report, or null when there was nothing to report
     */
    public Path write(RunResult result) throws IOException {
        Window w = window;
        if (w == null) {
            return null;
        }
        CpuSampler.writeCsv(w.samples(), dir.resolve("cpu.csv"));
        var probe = result.probe();
        var steady = probe.latency().fromIntended().steadyState();
        ProfileReport report = new ProfileReport(
                w.start(),
                loadEnd(w.end(), probe.run().ended()),
                w.start().plus(warmup),
                probe.records().measured(),
                steady == null ? 0 : steady.count(),
                w.samples(),
                w.recordings());
        Path md = dir.resolve(ProfileReport.MARKDOWN);
        Files.writeString(md, report.markdown());
        return md;
    }
}
