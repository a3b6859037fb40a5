package org.itsrt.pipeline.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where one JVM spent its time, from a JDK Flight Recorder file read with the JDK's own {@link
 * RecordingFile}: execution samples by the method on top of the stack (self time), by the top of
 * the stack (the heaviest call paths) and by thread; allocation samples by the allocating method;
 * the collector's pauses. Only events that start inside {@code [from, to]} count, so the part of
 * a run that is measured is what the numbers describe, not the JVM's start-up.
 *
 * <p>Execution samples see Java frames only: time a thread spends in the kernel (socket writes,
 * epoll) or in native code is not in them, only in the process's CPU time from /proc.
 *
 * @param samples        execution samples in the window
 * @param selfByMethod   samples per method on top of the stack, most first
 * @param byStack        samples per top-of-stack path ({@link #STACK_DEPTH} frames, innermost first), most first
 * @param byThread       samples per thread name, most first
 * @param cpuByThread    CPU per thread name in thousandths of a core (user + system, kernel time included), from
 *                       the periodic {@code jdk.ThreadCPULoad} events: each thread's mean load over the window,
 *                       summed over the threads of a name; most first
 * @param allocByMethod  sampled allocation weight (bytes) per allocating method, most first
 * @param allocatedBytes all sampled allocation weight in the window
 * @param gcPauses       collector pauses in the window
 * @param gcPauseMs      their total length
 */
public record JfrCosts(
        long samples,
        List<Map.Entry<String, Long>> selfByMethod,
        List<Map.Entry<String, Long>> byStack,
        List<Map.Entry<String, Long>> byThread,
        List<Map.Entry<String, Long>> cpuByThread,
        List<Map.Entry<String, Long>> allocByMethod,
        long allocatedBytes,
        long gcPauses,
        double gcPauseMs) {

    /** Cores the JIT compiler's threads ({@code C1 CompilerThread0}, {@code C2 ...}) took in the window. */
    public double jitCores() {
        return cpuByThread.stream()
                        .filter(e -> e.getKey().matches("CN CompilerThreadN.*"))
                        .mapToLong(Map.Entry::getValue)
                        .sum()
                / 1000.0;
    }

    /** Frames of a stack path: enough to see the caller of a hot leaf and its caller's caller. */
    public static final int STACK_DEPTH = 6;

    /** Rows kept per table. */
    public static final int TOP = 25;

    /** The costs of the events of {@code jfr} that start within {@code [from, to]}. */
    public static JfrCosts read(Path jfr, Instant from, Instant to) throws IOException {
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> stacks = new HashMap<>();
        Map<String, Long> threads = new HashMap<>();
        Map<String, Long> alloc = new HashMap<>();
        // Per thread id: its name, the sum of its loads and how many there were.
        Map<Long, String> loadThreadNames = new HashMap<>();
        Map<Long, double[]> loads = new HashMap<>();
        int hwThreads = 0;
        long samples = 0;
        long allocated = 0;
        long pauses = 0;
        double pauseMs = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if ("jdk.CPUInformation".equals(event.getEventType().getName())) {
                    // Emitted when a chunk starts, often before the window: the machine's size.
                    hwThreads = event.getInt("hwThreads");
                    continue;
                }
                Instant start = event.getStartTime();
                if (start.isBefore(from) || start.isAfter(to)) {
                    continue;
                }
                switch (event.getEventType().getName()) {
                    case "jdk.ExecutionSample" -> {
                        RecordedStackTrace trace = event.getStackTrace();
                        if (trace == null || trace.getFrames().isEmpty()) {
                            continue;
                        }
                        samples++;
                        self.merge(frameName(trace.getFrames().get(0)), 1L, Long::sum);
                        stacks.merge(stackPath(trace), 1L, Long::sum);
                        RecordedThread thread = event.getThread("sampledThread");
                        threads.merge(thread == null ? "?" : threadName(thread), 1L, Long::sum);
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        RecordedStackTrace trace = event.getStackTrace();
                        long weight = event.getLong("weight");
                        allocated += weight;
                        if (trace != null && !trace.getFrames().isEmpty()) {
                            alloc.merge(allocatingMethod(trace), weight, Long::sum);
                        }
                    }
                    case "jdk.ThreadCPULoad" -> {
                        RecordedThread thread = event.getThread();
                        if (thread == null) {
                            continue;
                        }
                        loadThreadNames.put(thread.getId(), threadName(thread));
                        double[] sum = loads.computeIfAbsent(thread.getId(), id -> new double[2]);
                        sum[0] += event.getFloat("user") + event.getFloat("system");
                        sum[1]++;
                    }
                    case "jdk.GarbageCollection" -> {
                        pauses++;
                        pauseMs += event.getDouble("sumOfPauses") / 1e6;
                    }
                    default -> {
                        // Other events are not costs this report adds up.
                    }
                }
            }
        }
        // Loads are fractions of the whole machine; times its hardware threads they are cores.
        int cpus = hwThreads > 0 ? hwThreads : Runtime.getRuntime().availableProcessors();
        Map<String, Long> cpuByThread = new HashMap<>();
        loads.forEach((id, sum) ->
                cpuByThread.merge(loadThreadNames.get(id), Math.round(1000 * cpus * sum[0] / sum[1]), Long::sum));
        cpuByThread.values().removeIf(milli -> milli == 0);
        return new JfrCosts(
                samples,
                top(self),
                top(stacks),
                top(threads),
                top(cpuByThread),
                top(alloc),
                allocated,
                pauses,
                pauseMs);
    }

    /**
     * The method that allocated: the first frame outside the JDK's own collections and boxing
     * helpers would be a guess, so it is simply the innermost frame, as JFR's own views show it.
     */
    private static String allocatingMethod(RecordedStackTrace trace) {
        return frameName(trace.getFrames().get(0));
    }

    private static String stackPath(RecordedStackTrace trace) {
        return trace.getFrames().stream()
                .limit(STACK_DEPTH)
                .map(JfrCosts::frameName)
                .collect(Collectors.joining(" <- "));
    }

    static String frameName(RecordedFrame frame) {
        if (frame.getMethod() == null) {
            return "?";
        }
        String type = frame.getMethod().getType() == null
                ? "?"
                : frame.getMethod().getType().getName();
        return type + "." + frame.getMethod().getName();
    }

    /**
     * A thread's name with its numbers taken out ({@code Kafka Fetcher for Source: ... (1/1)#0} and
     * {@code kafka-producer-network-thread | producer-3} each one row per kind), so the table says
     * which kind of thread works, not which of six alike.
     */
    static String threadName(RecordedThread thread) {
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return name == null ? "?" : name.replaceAll("\\d+", "N");
    }

    private static List<Map.Entry<String, Long>> top(Map<String, Long> counts) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP)
                .map(e -> Map.entry(e.getKey(), e.getValue()))
                .toList();
    }
}
