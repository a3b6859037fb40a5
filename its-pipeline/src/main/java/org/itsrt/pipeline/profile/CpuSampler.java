package org.itsrt.pipeline.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the CPU time (user + system, all threads) of named processes at a fixed interval:
 * {@link ProcessHandle.Info#totalCpuDuration()}, which on Linux is {@code /proc/PID/stat}'s
 * {@code utime + stime}, at the kernel's clock-tick resolution (10 ms). From two samples comes a
 * process's CPU share over a window (cores busy) and, with the records of that window, its CPU
 * time per record.
 */
public final class CpuSampler implements AutoCloseable {

    /** One reading of every process's CPU time. */
    public record Sample(Instant at, Map<String, Long> cpuNanos) {}

    private final Map<String, Long> pids;
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService timer;

    private CpuSampler(Map<String, Long> pids, Duration every) {
        this.pids = new LinkedHashMap<>(pids);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "its-cpu-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, 0, every.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts sampling {@code pids} (name -> process id) now and every {@code every}. */
    public static CpuSampler start(Map<String, Long> pids, Duration every) {
        return new CpuSampler(pids, every);
    }

    /** One more sample now (the end of a window is then exact to the call, not to the interval). */
    public synchronized void sample() {
        Map<String, Long> cpu = new LinkedHashMap<>();
        pids.forEach((name, pid) -> cpuNanos(pid).ifPresent(ns -> cpu.put(name, ns)));
        samples.add(new Sample(Instant.now(), cpu));
    }

    /** The CPU time of a process so far, empty when it is gone or the system does not tell. */
    static OptionalLong cpuNanos(long pid) {
        return ProcessHandle.of(pid)
                .flatMap(p -> p.info().totalCpuDuration())
                .map(d -> OptionalLong.of(d.toNanos()))
                .orElse(OptionalLong.empty());
    }

    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        sample();
    }

    /**
     * Per process, the CPU time spent between the first sample at or after {@code from} and the
     * last at or before {@code to}, and that span; empty when the window holds fewer than two
     * samples.
     */
    public static Map<String, Usage> usage(List<Sample> samples, Instant from, Instant to) {
        Sample first = null;
        Sample last = null;
        for (Sample s : samples) {
            if (s.at().isBefore(from) || s.at().isAfter(to)) {
                continue;
            }
            if (first == null) {
                first = s;
            }
            last = s;
        }
        Map<String, Usage> usage = new LinkedHashMap<>();
        if (first == null || first == last) {
            return usage;
        }
        double seconds = Duration.between(first.at(), last.at()).toNanos() / 1e9;
        for (Map.Entry<String, Long> e : last.cpuNanos().entrySet()) {
            Long before = first.cpuNanos().get(e.getKey());
            if (before != null) {
                usage.put(e.getKey(), new Usage((e.getValue() - before) / 1e9, seconds));
            }
        }
        return usage;
    }

    /** CPU seconds over a wall-clock span. */
    public record Usage(double cpuSeconds, double wallSeconds) {

        /** Cores busy on average: 1.0 is one core all the time. */
        public double cores() {
            return cpuSeconds / wallSeconds;
        }
    }

    /** {@code cpu.csv}: one row per sample and process, seconds since the first sample and CPU seconds so far. */
    public static void writeCsv(List<Sample> samples, Path file) throws IOException {
        StringBuilder csv = new StringBuilder("t_s,process,cpu_s\n");
        if (!samples.isEmpty()) {
            Instant t0 = samples.get(0).at();
            for (Sample s : samples) {
                double t = Duration.between(t0, s.at()).toNanos() / 1e9;
                s.cpuNanos()
                        .forEach((name, ns) ->
                                csv.append(String.format(Locale.ROOT, "%.3f,%s,%.3f%n", t, name, ns / 1e9)));
            }
        }
        Files.writeString(file, csv);
    }
}
