package org.itsrt.probe.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A faults file ({@code --faults FILE}), for runs where another process injects the faults: one
 * line per fault, {@code epoch_ms,label}, e.g. {@code 1718000000123,kill -9 taskmanager-1}.
 * The label is everything after the first comma (it may hold commas). Blank lines, lines starting
 * with {@code #} and a header line {@code epoch_ms,label} are skipped.
 */
public final class FaultFile {

    public static final String HEADER = "epoch_ms,label";

    /** One line of the file. */
    public record Line(Instant at, String label) {}

    private FaultFile() {}

    /**
     * Reads the file.
     *
     * @throws IOException naming the file and the line when a line is malformed, or the file when
     *                     it cannot be read
     */
    public static List<Line> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Line> faults = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty() || text.startsWith("#") || text.equals(HEADER)) {
                continue;
            }
            faults.add(parse(text, file, i + 1));
        }
        return faults;
    }

    private static Line parse(String text, Path file, int number) throws IOException {
        int comma = text.indexOf(',');
        if (comma < 0) {
            throw malformed(file, number, "expected " + HEADER, text);
        }
        String millis = text.substring(0, comma).strip();
        String label = text.substring(comma + 1).strip();
        long epochMs;
        try {
            epochMs = Long.parseLong(millis);
        } catch (NumberFormatException e) {
            throw malformed(file, number, "epoch_ms is not a whole number of milliseconds", text);
        }
        if (epochMs < 0) {
            throw malformed(file, number, "epoch_ms is negative", text);
        }
        if (label.isEmpty()) {
            throw malformed(file, number, "the label is empty", text);
        }
        return new Line(Instant.ofEpochMilli(epochMs), label);
    }

    private static IOException malformed(Path file, int number, String problem, String text) {
        return new IOException(file + ":" + number + ": " + problem + ": '" + text + "'");
    }
}
