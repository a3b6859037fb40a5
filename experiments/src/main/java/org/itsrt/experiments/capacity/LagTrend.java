package org.itsrt.experiments.capacity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the consumer falls further behind over a run's measured phase: the least-squares slope
 * of each SLO window's p95 latency (from the intended send time, ms) against the window's start
 * (s). Latency from the intended time of an open-loop load is the backlog in time: while the job
 * keeps up it stays flat; when it serves less than is offered, every answer waits for the ones
 * before it and the latency grows by {@code 1000 * (1 - served/offered)} ms per second. A slope
 * of 5 ms/s is the job falling behind by 0.5 % of the offered rate.
 *
 * @param slopeMsPerS the slope, ms of latency per s of run; NaN with fewer than {@link #MIN_WINDOWS}
 * @param windows     the windows it was fitted over
 */
public record LagTrend(double slopeMsPerS, int windows) {

    /** Fewer windows than this say nothing about a trend, and a run with them does not meet the rule. */
    public static final int MIN_WINDOWS = 3;

    /** The latency the windows are read for: from the intended send time, the backlog included. */
    public static final String LATENCY_KEY = "from_intended";

    /** One SLO window: its start (s from the first measured record) and its p95 (ms). */
    public record Window(double startS, double p95Ms) {}

    /** The trend of these windows, in any order. */
    public static LagTrend of(List<Window> windows) {
        int n = windows.size();
        if (n < MIN_WINDOWS) {
            return new LagTrend(Double.NaN, n);
        }
        double meanX = windows.stream().mapToDouble(Window::startS).average().orElseThrow();
        double meanY = windows.stream().mapToDouble(Window::p95Ms).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (Window w : windows) {
            sxy += (w.startS() - meanX) * (w.p95Ms() - meanY);
            sxx += (w.startS() - meanX) * (w.startS() - meanX);
        }
        return new LagTrend(sxx == 0 ? Double.NaN : sxy / sxx, n);
    }

    /**
     * The trend of a stream's {@code windows.csv} (as the probe writes it:
     * {@code latency,window,start_s,records,p95_ms,...}), its {@link #LATENCY_KEY} rows.
     */
    public static LagTrend read(Path windowsCsv) throws IOException {
        List<String> lines = Files.readAllLines(windowsCsv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith("latency,window,start_s,records,p95_ms")) {
            throw new IOException(windowsCsv + ": not a probe's windows.csv (header "
                    + (lines.isEmpty() ? "missing" : lines.get(0)) + ")");
        }
        List<Window> windows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length >= 5 && cells[0].equals(LATENCY_KEY)) {
                windows.add(new Window(Double.parseDouble(cells[2]), Double.parseDouble(cells[4])));
            }
        }
        return of(windows);
    }

    /** Whether the lag does not grow beyond the tolerance; a trend that could not be fitted does not pass. */
    public boolean within(double toleranceMsPerS) {
        return !Double.isNaN(slopeMsPerS) && slopeMsPerS <= toleranceMsPerS;
    }
}
