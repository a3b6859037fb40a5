package org.itsrt.job.replay;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;

/** Writes one CSV row per advice: the reading, the prediction and the route (VDS ids joined by '>'). */
final class AdviceCsv implements Closeable {

    static final String HEADER = "station_id,ts_utc,flow,predicted_next_flow,route,route_seconds";

    private final BufferedWriter writer;

    AdviceCsv(Path file) throws IOException {
        writer = Files.newBufferedWriter(file);
        writer.write(HEADER);
        writer.newLine();
    }

    void write(Advice advice) throws IOException {
        writer.write(String.format(
                Locale.ROOT,
                "%d,%s,%s,%.3f,%s,%.1f",
                advice.stationId(),
                advice.readingTsUtc(),
                number(advice.observedFlow()),
                advice.predictedFlow(),
                advice.route().vdsIds().stream().map(String::valueOf).collect(Collectors.joining(">")),
                advice.route().costSeconds()));
        writer.newLine();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
