package org.itsrt.probe;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.Durations;
import org.itsrt.probe.arrival.ConsumeLoop;
import picocli.CommandLine.Option;

/**
 * How the probe reads: when it stops besides a count or a time, where in the topic it starts,
 * the faults file, how long it waits for the broker, how often it reports progress.
 */
final class ConsumeOptions {

    @Option(
            names = "--idle-timeout",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "stop when nothing arrived for this long, counted from the first record; a stall "
                    + "shorter than this stays in the measurement (default: off)")
    Duration idleTimeout;

    @Option(
            names = "--expect",
            defaultValue = "0",
            paramLabel = "N",
            description = "measured records the producers will send in all, warm-up records not counted; the "
                    + "report gives the shortfall and progress an ETA (default: unknown)")
    long expect;

    @Option(
            names = "--from-beginning",
            description = "read the topic from its earliest offsets instead of only what is sent from now on")
    boolean fromBeginning;

    @Option(
            names = "--faults",
            paramLabel = "FILE",
            description = "faults injected during the run by another process, read when the run stops: one "
                    + "line 'epoch_ms,label' per fault (e.g. 1718000000123,kill -9 taskmanager-1); the report "
                    + "gives per fault the silence in arrivals, delayed and duplicated records and the time to "
                    + "recover (default: none)")
    Path faults;

    @Option(
            names = "--connect-timeout",
            defaultValue = "10s",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "how long to wait for the broker to describe the topic before giving up "
                    + "(default: ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(
            names = "--progress",
            defaultValue = "2s",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "time between progress lines on stderr; 0 for none (default: ${DEFAULT-VALUE})")
    Duration progress;

    /**
     * Why a run stopped, per reason, as the report names it: the option that stopped it.
     *
     * @param records  {@code --records}
     * @param duration {@code --duration}, null when not given
     */
    Map<ConsumeLoop.StopReason, String> stopDescription(long records, Duration duration) {
        Map<ConsumeLoop.StopReason, String> stops = new EnumMap<>(ConsumeLoop.StopReason.class);
        stops.put(ConsumeLoop.StopReason.RECORDS, "--records " + records);
        stops.put(
                ConsumeLoop.StopReason.DURATION, "--duration " + (duration == null ? "" : Durations.format(duration)));
        stops.put(
                ConsumeLoop.StopReason.IDLE,
                "--idle-timeout " + (idleTimeout == null ? "" : Durations.format(idleTimeout))
                        + " (nothing arrived for that long)");
        stops.put(ConsumeLoop.StopReason.INTERRUPTED, "interrupt (Ctrl-C)");
        return stops;
    }

    /** What is wrong with these options, naming the option; null when nothing is. */
    String problem() {
        if (expect < 0) {
            return "--expect must be >= 0, got " + expect;
        }
        if (connectTimeout.isZero() || connectTimeout.isNegative()) {
            return "--connect-timeout must be longer than 0";
        }
        return null;
    }
}
