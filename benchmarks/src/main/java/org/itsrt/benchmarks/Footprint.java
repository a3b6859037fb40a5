package org.itsrt.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.ReadingWindow;

/**
 * One engine's footprint ({@link EngineFootprint}): threads it started, memory the process grew by
 * at open and after the calls, and the CPU and wall time of a paced call; measured in this JVM.
 */
record Footprint(
        String engine,
        int threadsAdded,
        double openMb,
        double afterCallsMb,
        double anonymousMb,
        double heapMb,
        double callerUsPerCall,
        double otherThreadsUsPerCall,
        double wallUsPerCall) {

    String csv() {
        return String.format(
                Locale.ROOT,
                "%s,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f",
                engine,
                threadsAdded,
                openMb,
                afterCallsMb,
                anonymousMb,
                heapMb,
                callerUsPerCall,
                otherThreadsUsPerCall,
                wallUsPerCall);
    }

    static Footprint parse(String line) {
        String[] f = line.split(",");
        double[] v = new double[f.length - 2];
        for (int i = 0; i < v.length; i++) {
            v[i] = Double.parseDouble(f[i + 2]);
        }
        return new Footprint(f[0], Integer.parseInt(f[1]), v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    }

    static Footprint measure(String model, String engine, int calls, long pauseUs) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc();
        long rssBefore = status("VmRSS");
        long anonymousBefore = status("RssAnon");
        long threadsBefore = status("Threads");
        long heapBefore = heapUsed();

        FlowPredictor predictor = FlowPrediction.openPredictor(model, engine, true);
        List<ReadingWindow> windows = FlowPrediction.randomWindows(predictor.bundle(), new Random(FlowPrediction.SEED));
        long rssOpen = status("VmRSS");
        float sink = 0;
        for (int call = 0; call < 2_000; call++) {
            sink += predictor.predict(windows.get(call % windows.size()));
        }

        long callerStart = threads.getCurrentThreadCpuTime();
        long processStart = os.getProcessCpuTime();
        long wallStart = System.nanoTime();
        long busy = 0;
        for (int call = 0; call < calls; call++) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(pauseUs));
            long t0 = System.nanoTime();
            sink += predictor.predict(windows.get(call % windows.size()));
            busy += System.nanoTime() - t0;
        }
        long caller = threads.getCurrentThreadCpuTime() - callerStart;
        long process = os.getProcessCpuTime() - processStart;
        long wall = System.nanoTime() - wallStart;
        long rssCalls = status("VmRSS");
        long anonymousCalls = status("RssAnon");
        long threadsAfter = status("Threads");
        long heapAfter = heapUsed();
        if (Float.isNaN(sink) || wall <= 0) {
            throw new IllegalStateException("the predictor returned NaN");
        }
        predictor.close();
        double mb = 1024.0;
        return new Footprint(
                engine,
                (int) (threadsAfter - threadsBefore),
                (rssOpen - rssBefore) / mb,
                (rssCalls - rssBefore) / mb,
                (anonymousCalls - anonymousBefore) / mb,
                (heapAfter - heapBefore) / (1024.0 * 1024.0),
                caller / 1_000.0 / calls,
                Math.max(0, process - caller) / 1_000.0 / calls,
                busy / 1_000.0 / calls);
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** A number of /proc/self/status, e.g. VmRSS in kB or Threads. */
    private static long status(String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(key + ":")) {
                return Long.parseLong(line.substring(key.length() + 1).trim().split("\\s+")[0]);
            }
        }
        throw new IllegalStateException("/proc/self/status has no " + key);
    }
}
