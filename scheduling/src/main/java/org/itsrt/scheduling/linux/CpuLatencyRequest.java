package org.itsrt.scheduling.linux;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A PM QoS CPU latency request: while it is held, no CPU of the host enters an idle state whose
 * wake-up takes longer than the given number of microseconds. 0 keeps idle CPUs polling instead
 * of halting, as tuned's {@code latency-performance} profile and cyclictest do for real-time
 * hosts.
 *
 * <p>Why it matters here: a virtual CPU that halts when idle leaves the guest, and the host may
 * run other work on its physical core meanwhile. A task that wakes every few milliseconds (a
 * Flink subtask at the study's load) then starts each time with cold caches and pays the way back
 * into the guest; polling keeps the core and its caches. The price is the host's: the idle CPUs
 * stay busy from its point of view (power, and time a shared host could have given to others).
 *
 * <p>The request lives as long as the file descriptor of {@code /dev/cpu_dma_latency} that
 * carries it: {@link #close()} ends it, and so does the kernel when the process ends in any way,
 * SIGKILL included, so a killed run cannot leave it behind. Requests of several processes
 * combine: the lowest wins.
 */
public final class CpuLatencyRequest implements AutoCloseable {

    /** The kernel's interface to the CPU latency request (Documentation/power/pm_qos_interface). */
    public static final Path DEVICE = Path.of("/dev/cpu_dma_latency");

    private final Path device;
    private final int maxWakeupUs;
    private final FileOutputStream held;

    private CpuLatencyRequest(Path device, int maxWakeupUs, FileOutputStream held) {
        this.device = device;
        this.maxWakeupUs = maxWakeupUs;
        this.held = held;
    }

    /** Holds a request on this host's {@link #DEVICE} until closed. */
    public static CpuLatencyRequest hold(int maxWakeupUs) {
        return hold(DEVICE, maxWakeupUs);
    }

    /**
     * Holds a request of {@code maxWakeupUs} microseconds on {@code device} until closed.
     *
     * @throws IllegalArgumentException for a negative latency
     * @throws SchedulingException naming the device where it is missing or not writable (it needs root)
     */
    public static CpuLatencyRequest hold(Path device, int maxWakeupUs) {
        if (maxWakeupUs < 0) {
            throw new IllegalArgumentException("a CPU latency request is >= 0 microseconds, got " + maxWakeupUs);
        }
        // Checked first because opening a missing /dev file for writing, as root, would create a
        // plain file there and the request would silently do nothing.
        if (!Files.exists(device)) {
            throw new SchedulingException(device + ": no such device; a CPU latency request needs Linux with PM QoS "
                    + "(CONFIG_CPU_IDLE), which this host lacks");
        }
        FileOutputStream out = null;
        try {
            out = new FileOutputStream(device.toFile());
            // The kernel takes a 32-bit integer in the CPU's byte order.
            out.write(ByteBuffer.allocate(Integer.BYTES)
                    .order(ByteOrder.nativeOrder())
                    .putInt(maxWakeupUs)
                    .array());
            return new CpuLatencyRequest(device, maxWakeupUs, out);
        } catch (IOException e) {
            closeQuietly(out);
            throw new SchedulingException(
                    device + ": cannot hold a CPU latency request of " + maxWakeupUs + " us (" + e.getMessage()
                            + "); writing it needs root",
                    e);
        }
    }

    /**
     * The latency the host's CPUs are held to now, the lowest of all requests held; the kernel's
     * default (2,000 s) where nobody holds one. Empty where the device cannot be read.
     */
    public static OptionalInt current(Path device) {
        try {
            byte[] value = Files.readAllBytes(device);
            if (value.length < Integer.BYTES) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(
                    ByteBuffer.wrap(value).order(ByteOrder.nativeOrder()).getInt());
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /** The latency this request asks for, in microseconds. */
    public int maxWakeupUs() {
        return maxWakeupUs;
    }

    /** One line for logs and reports. */
    public String describe() {
        return "CPU latency request " + maxWakeupUs + " us (" + device + ")"
                + (maxWakeupUs == 0 ? ": idle CPUs poll instead of halting" : "");
    }

    /** Ends the request; the host's CPUs go back to the idle states the other requests allow. */
    @Override
    public void close() {
        try {
            held.close();
        } catch (IOException e) {
            throw new SchedulingException(device + ": ending the CPU latency request: " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(FileOutputStream out) {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException suppressed) {
            // The request ends with the descriptor; nothing more to undo.
        }
    }
}
