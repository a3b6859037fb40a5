package org.itsrt.probe.accuracy;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.probe.compare.RunLatencies;
import org.itsrt.probe.report.LatencyCsv;

/**
 * What the job predicted for each measured record of one probe run, read back from its
 * {@code latencies.csv}: the prediction and whether the cheap engine made it, by detector and
 * sequence number. A producer replays the same readings under the same (detector, seq) in every
 * run of a plan, and a reading's prediction depends on the reading alone (its window of flows), so
 * two runs of the same load predict the same records and can be held against each other.
 *
 * @param label              the run's name in a report
 * @param csv                the file read
 * @param byRecord           each record's prediction; the first arrival of a duplicated record
 * @param withoutPrediction  measured records that carried no prediction
 * @param duplicates         arrivals of a record already read, left out
 * @param degraded           records of {@code byRecord} the cheap engine served, counted as they are read
 */
public record RunPredictions(
        String label,
        Path csv,
        Map<RecordKey, Prediction> byRecord,
        long withoutPrediction,
        long duplicates,
        long degraded) {

    /** A record of the run: the reading's detector and its producer's sequence number. */
    public record RecordKey(long detector, long seq) {}

    /** The job's prediction on a record and whether the cheap engine made it to meet the deadline. */
    public record Prediction(double flow, boolean degraded) {}

    static final String DEGRADED = "degraded";
    static final String PREDICTED_FLOW = "predicted_flow";

    /**
     * Reads a probe run folder, the probe folder of a demo or experiment run ({@code RUN/probe}), or
     * a {@code latencies.csv}.
     *
     * @throws IOException naming the file when it is missing, was written before predictions were
     *     kept, or holds a row that is not as the probe writes it
     */
    public static RunPredictions read(Path input) throws IOException {
        Path csv = csvOf(input);
        Map<RecordKey, Prediction> byRecord = new HashMap<>();
        long withoutPrediction = 0;
        long duplicates = 0;
        long degraded = 0;
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                throw new IOException(csv + ": empty file, expected the header " + LatencyCsv.HEADER);
            }
            List<String> columns = List.of(header.strip().split(","));
            if (!columns.contains(PREDICTED_FLOW) || !columns.contains(DEGRADED)) {
                throw new IOException(csv + ": no " + PREDICTED_FLOW + " column: written by a probe that did not "
                        + "keep predictions, expected the header " + LatencyCsv.HEADER);
            }
            int detectorAt = columns.indexOf("detector");
            int seqAt = columns.indexOf("seq");
            int degradedAt = columns.indexOf(DEGRADED);
            int flowAt = columns.indexOf(PREDICTED_FLOW);
            String line;
            int number = 1;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                if (cells.length != columns.size()) {
                    throw new IOException(
                            csv + ":" + number + ": " + cells.length + " columns, expected " + columns.size());
                }
                if (cells[flowAt].isEmpty()) {
                    withoutPrediction++;
                    continue;
                }
                RecordKey key;
                Prediction prediction;
                try {
                    key = new RecordKey(Long.parseLong(cells[detectorAt]), Long.parseLong(cells[seqAt]));
                    prediction = new Prediction(Double.parseDouble(cells[flowAt]), flag(cells[degradedAt]));
                } catch (IllegalArgumentException e) {
                    throw new IOException(csv + ":" + number + ": " + e.getMessage(), e);
                }
                if (byRecord.putIfAbsent(key, prediction) != null) {
                    duplicates++;
                } else if (prediction.degraded()) {
                    degraded++;
                }
            }
        }
        return new RunPredictions(label(input, csv), csv, byRecord, withoutPrediction, duplicates, degraded);
    }

    private static boolean flag(String cell) {
        return switch (cell) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(DEGRADED + " is \"" + cell + "\", expected true or false");
        };
    }

    private static Path csvOf(Path input) throws IOException {
        if (!Files.exists(input)) {
            throw new NoSuchFileException(input.toString());
        }
        if (!Files.isDirectory(input)) {
            return input;
        }
        for (Path candidate : List.of(
                input.resolve(LatencyCsv.FILE),
                input.resolve(RunLatencies.DEMO_PROBE_FOLDER).resolve(LatencyCsv.FILE))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IOException(input + ": no " + LatencyCsv.FILE + " in it or in its " + RunLatencies.DEMO_PROBE_FOLDER
                + "/ folder (a probe run folder, or a demo or experiment run)");
    }

    /**
     * The run's name: its folder, with the folder above when that tells runs apart (an experiment's
     * {@code ROW/rep-N}); the probe folder of a run is named after the run.
     */
    private static String label(Path input, Path csv) {
        Path folder = (Files.isDirectory(input) ? input : csv.getParent())
                .toAbsolutePath()
                .normalize();
        if (folder.getFileName() != null && folder.getFileName().toString().equals(RunLatencies.DEMO_PROBE_FOLDER)) {
            folder = folder.getParent();
        }
        if (folder == null || folder.getFileName() == null) {
            return input.toString();
        }
        String name = folder.getFileName().toString();
        Path parent = folder.getParent();
        if (name.startsWith("rep-") && parent != null && parent.getFileName() != null) {
            return parent.getFileName() + "/" + name;
        }
        return name;
    }
}
