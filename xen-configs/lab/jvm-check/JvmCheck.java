import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a JVM computes the same thing twice: threads recompute, for 32 seeds in turn, a hash
 * of sorted arrays, a map and a SHA-256 digest - work the JIT compiles with vector code - and
 * hold every result to the first one computed for its seed. On a sound machine no result ever
 * differs; a machine that loses a register or a store when a CPU is stopped and resumed shows
 * it as a wrong result. Usage: java -cp DIR JvmCheck SECONDS THREADS; exit 1 on a wrong result.
 */
public final class JvmCheck {

    private static final int SEEDS = 32;

    private JvmCheck() {}

    static long work(int seed) throws Exception {
        Random random = new Random(seed);
        int n = 20_000 + seed * 100;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt();
        }
        Arrays.sort(values);
        Map<String, Integer> sums = new HashMap<>();
        StringBuilder sampled = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            String key = Integer.toHexString(values[(i * 7) % n]) + ":" + i % 97;
            sums.merge(key, i, Integer::sum);
            if (i % 50 == 0) {
                sampled.append(key);
            }
        }
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (int v : values) {
            digest.update((byte) v);
            digest.update((byte) (v >>> 8));
        }
        digest.update(sampled.toString().getBytes(StandardCharsets.UTF_8));
        long hash = 0;
        for (byte b : digest.digest()) {
            hash = hash * 31 + b;
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(sums.entrySet());
        entries.sort(Map.Entry.comparingByKey());
        for (Map.Entry<String, Integer> e : entries) {
            hash = hash * 31 + e.getKey().hashCode() + e.getValue();
        }
        return hash;
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        Map<Integer, Long> first = new ConcurrentHashMap<>();
        AtomicLong results = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int start = t;
            running.add(pool.submit(() -> {
                for (int i = start; System.nanoTime() < end; i++) {
                    int seed = i % SEEDS;
                    long hash = work(seed);
                    Long before = first.putIfAbsent(seed, hash);
                    if (before != null && before != hash) {
                        wrong.incrementAndGet();
                        System.out.println("wrong result for seed " + seed + ": " + hash + ", first " + before);
                    }
                    results.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        System.out.println("jvm-check: " + results + " results in " + seconds + " s on " + threads
                + " threads, " + wrong + " wrong");
        System.exit(wrong.get() == 0 ? 0 : 1);
    }
}
