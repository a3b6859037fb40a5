package org.itsrt.readings.pems;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.readings.BadInputException;

/**
 * Decides what a bad row or file does to an import, and keeps count of everything skipped so
 * that nothing disappears unreported. Strict (the default): a malformed row or file fails the
 * import. Lenient: it is skipped and counted by reason. Rows that are well-formed but hold no
 * reading (a missing flow) are skipped and counted in both modes.
 */
public final class InputProblems {
    /** How many skipped rows the report shows one by one; the rest are only counted. */
    static final int EXAMPLES_KEPT = 10;

    /**
     * One skipped row.
     *
     * @param file      the file as the user named it
     * @param row       1-based line (text files) or sheet row (workbooks)
     * @param stationId the row's station, or null where it could not be read
     * @param column    the offending column, or null for the row as a whole
     * @param reason    the category the report counts by
     * @param detail    what was expected and what was found
     */
    public record SkippedRow(String file, long row, Long stationId, String column, String reason, String detail) {
        /** {@code file:row column: detail}, the form the report lists. */
        public String describe() {
            return file + ":" + row + (column == null ? "" : " " + column) + ": " + detail;
        }
    }

    /** A file a lenient import could not read at all. */
    public record SkippedFile(String file, String reason) {}

    private final boolean lenient;
    private final Map<String, Integer> skippedByReason = new TreeMap<>();
    private final Map<Long, Integer> skippedByStation = new TreeMap<>();
    private final List<SkippedRow> examples = new ArrayList<>();
    private final List<SkippedFile> skippedFiles = new ArrayList<>();
    private int skippedRows;

    InputProblems(boolean lenient) {
        this.lenient = lenient;
    }

    /**
     * A row cannot become a reading.
     *
     * @param place where the row is, as a strict failure names it (e.g. {@code line 12})
     * @throws BadInputException in strict mode when the row is malformed
     */
    void rowRejected(String file, String place, long row, Long stationId, RowProblem problem) {
        if (problem.isMalformed() && !lenient) {
            throw new BadInputException(file, place, problem.column(), problem.detail());
        }
        skippedRows++;
        skippedByReason.merge(problem.reason(), 1, Integer::sum);
        if (stationId != null) {
            skippedByStation.merge(stationId, 1, Integer::sum);
        }
        if (examples.size() < EXAMPLES_KEPT) {
            examples.add(new SkippedRow(file, row, stationId, problem.column(), problem.reason(), problem.detail()));
        }
    }

    /**
     * A whole file cannot be read.
     *
     * @throws BadInputException the problem itself, in strict mode
     */
    void fileRejected(BadInputException problem) {
        if (!lenient) {
            throw problem;
        }
        skippedFiles.add(new SkippedFile(problem.file(), problem.getMessage()));
    }

    public boolean isLenient() {
        return lenient;
    }

    public int skippedRows() {
        return skippedRows;
    }

    public Map<String, Integer> skippedByReason() {
        return Collections.unmodifiableMap(skippedByReason);
    }

    public int skippedRows(long stationId) {
        return skippedByStation.getOrDefault(stationId, 0);
    }

    public List<SkippedRow> examples() {
        return Collections.unmodifiableList(examples);
    }

    public List<SkippedFile> skippedFiles() {
        return Collections.unmodifiableList(skippedFiles);
    }
}
