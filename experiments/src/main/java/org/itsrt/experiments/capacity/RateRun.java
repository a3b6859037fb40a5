package org.itsrt.experiments.capacity;

import java.nio.file.Path;

/**
 * What one run at one request rate measured of its requests -> answers stream.
 *
 * @param exitCode the pipeline's exit code (0 = every record sent and measured)
 * @param p99Ms    the answers' p99 from the intended send time, measured phase, ms (NaN without answers)
 * @param answered requests answered in the measured phase
 * @param lost     measured requests that never got an answer
 * @param lag      the trend of the answers' per-window latency
 * @param dir      the run's folder (null for a modelled run)
 */
public record RateRun(int exitCode, double p99Ms, long answered, long lost, LagTrend lag, Path dir) {}
