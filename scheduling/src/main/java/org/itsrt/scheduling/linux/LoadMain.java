package org.itsrt.scheduling.linux;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The interference load's own process: {@code cpu N} spins N threads, {@code io FILE} writes 4 KiB
 * blocks to FILE and fsyncs each (within a 16 MiB window, so the file stays small). It prints "ready",
 * waits for "go" on stdin (so that it can be put into its cgroup before it burns anything), prints
 * "running", and stops when stdin closes, printing what it did. A parent that dies closes stdin too,
 * so a load never outlives the run that started it.
 */
public final class LoadMain {

    private static final int BLOCK = 4096;
    private static final long WINDOW = 16L << 20;

    private static volatile boolean stop;

    private LoadMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("cpu") || args[0].equals("io"))) {
            System.err.println("usage: LoadMain cpu THREADS | io FILE");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        System.out.println("ready");
        System.out.flush();
        String line = in.readLine();
        if (!"go".equals(line)) {
            return;
        }
        AtomicLong done = new AtomicLong();
        Thread[] workers;
        if (args[0].equals("cpu")) {
            int n = Integer.parseInt(args[1]);
            workers = new Thread[n];
            for (int i = 0; i < n; i++) {
                workers[i] = new Thread(() -> spin(done), "itsrt-load-cpu-" + i);
            }
        } else {
            Path file = Path.of(args[1]);
            workers = new Thread[] {new Thread(() -> writeAndSync(file, done), "itsrt-load-io")};
        }
        for (Thread w : workers) {
            w.setDaemon(true);
            w.start();
        }
        System.out.println("running");
        System.out.flush();
        while (in.readLine() != null) {
            // anything but EOF is ignored: EOF is the stop signal
        }
        stop = true;
        for (Thread w : workers) {
            w.join(2_000);
        }
        System.out.println((args[0].equals("cpu") ? "iterations " : "fsyncs ") + done.get());
        System.out.flush();
    }

    private static void spin(AtomicLong done) {
        long x = System.nanoTime();
        long n = 0;
        while (!stop) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            n++;
        }
        done.addAndGet(n + (x == 42 ? 1 : 0));
    }

    private static void writeAndSync(Path file, AtomicLong done) {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        for (int i = 0; i < BLOCK; i++) {
            block.put(i, (byte) i);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
            long position = 0;
            while (!stop) {
                block.clear();
                while (block.hasRemaining()) {
                    position += channel.write(block, position);
                }
                channel.force(false);
                done.incrementAndGet();
                if (position >= WINDOW) {
                    position = 0;
                }
            }
        } catch (IOException e) {
            System.err.println("io load on " + file + " failed: " + e.getMessage());
        }
    }
}
