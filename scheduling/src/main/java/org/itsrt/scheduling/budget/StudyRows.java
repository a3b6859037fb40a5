package org.itsrt.scheduling.budget;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The study's scheduler rows read from a rows file ({@code xen-configs/study-rows.tsv}): tab-separated,
 * {@code #} comments, one header line, {@code -} where a column does not apply. Read strictly, with the
 * checks {@code xen-configs/apply-row.sh} makes, so that a row the script would refuse is refused here
 * too, naming the file and the line.
 */
public record StudyRows(Path file, List<StudyRow> rows) {

    public static final List<String> COLUMNS = List.of(
            "row", "sched", "pool", "period_us", "budget_us", "extratime", "weight", "cap", "source", "study_max_ms");

    private static final String NONE = "-";
    // Row names become file names (docker/rows/ROW.yaml) and command arguments.
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern UINT = Pattern.compile("[0-9]{1,9}");
    private static final Pattern MICROS = Pattern.compile("[0-9]{1,12}");
    private static final Pattern MILLISECONDS = Pattern.compile("[0-9]{1,9}(\\.[0-9]+)?");

    public StudyRows {
        rows = List.copyOf(rows);
    }

    /**
     * Reads and checks every row, so that a mistake anywhere in the file shows before a row is used.
     *
     * @throws IllegalArgumentException naming the file (and the line) when it cannot be read or a row is wrong
     */
    public static StudyRows read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such rows file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the rows file: " + e.getMessage());
        }
        List<StudyRow> rows = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1);
            if (!header) {
                if (!Arrays.asList(line.split("\t", -1)).equals(COLUMNS)) {
                    throw new IllegalArgumentException(
                            where + ": expected the header line '" + String.join(" ", COLUMNS) + "' (tab-separated)");
                }
                header = true;
                continue;
            }
            StudyRow row = parse(line.split("\t", -1), where, i + 1);
            if (!names.add(row.name())) {
                throw new IllegalArgumentException(where + ": row '" + row.name() + "' appears twice");
            }
            rows.add(row);
        }
        if (!header) {
            throw new IllegalArgumentException(file + ": no header line");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(file + ": no rows");
        }
        return new StudyRows(file, rows);
    }

    public Optional<StudyRow> find(String name) {
        return rows.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /**
     * The row of that name.
     *
     * @throws IllegalArgumentException listing the rows when there is none
     */
    public StudyRow row(String name) {
        return find(name)
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown row '" + name + "' (rows in " + file + ": " + String.join(", ", names()) + ")"));
    }

    public List<String> names() {
        return rows.stream().map(StudyRow::name).toList();
    }

    private static StudyRow parse(String[] c, String where, int line) {
        String name = c[0];
        if (c.length != COLUMNS.size()) {
            throw new IllegalArgumentException(where + ": row '" + name + "': expected " + COLUMNS.size()
                    + " tab-separated columns, got " + c.length);
        }
        String at = where + ": row " + name + ": ";
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    where + ": row '" + name + "': expected a name of letters, digits, '.', '_' and '-'");
        }
        String sched = c[1];
        String pool = c[2];
        if (pool.isEmpty()) {
            throw new IllegalArgumentException(at + "pool: expected a cpupool name or '-'");
        }
        String source = c[8];
        if (source.isEmpty()) {
            throw new IllegalArgumentException(at + "source: expected where the row comes from, e.g. 'Table 4'");
        }
        BigDecimal studyMax = null;
        if (!c[9].equals(NONE)) {
            if (!MILLISECONDS.matcher(c[9]).matches()) {
                throw new IllegalArgumentException(
                        at + "study_max_ms '" + c[9] + "': expected milliseconds, e.g. 49.32, or '-'");
            }
            studyMax = new BigDecimal(c[9]);
        }
        switch (sched) {
            case "rtds" -> {
                long period = micros(c[3], "period_us", at);
                long budget = micros(c[4], "budget_us", at);
                if (budget > period) {
                    throw new IllegalArgumentException(at + "budget_us " + budget + " exceeds period_us " + period);
                }
                String xenProblem = XenLimits.problem(budget, period);
                if (xenProblem != null) {
                    throw new IllegalArgumentException(at + xenProblem);
                }
                // xl refuses -p/-b without -e, so every RTDS row says what extratime it means.
                if (!c[5].equals("0") && !c[5].equals("1")) {
                    throw new IllegalArgumentException(at + "extratime '" + c[5] + "': expected 0 or 1");
                }
                if (!c[6].equals(NONE) || !c[7].equals(NONE)) {
                    throw new IllegalArgumentException(at + "weight and cap: expected '-' for rtds");
                }
                return new StudyRow(
                        name,
                        StudyRow.Sched.RTDS,
                        pool,
                        new Reservation(budget, period),
                        c[5].equals("1"),
                        null,
                        null,
                        source,
                        studyMax,
                        line);
            }
            case "credit", "credit2" -> {
                if (!UINT.matcher(c[6]).matches() || Integer.parseInt(c[6]) < 1 || Integer.parseInt(c[6]) > 65535) {
                    throw new IllegalArgumentException(at + "weight '" + c[6] + "': expected 1..65535");
                }
                if (!UINT.matcher(c[7]).matches()) {
                    throw new IllegalArgumentException(
                            at + "cap '" + c[7] + "': expected a percentage of one pCPU, 0 for none");
                }
                if (!c[3].equals(NONE) || !c[4].equals(NONE) || !c[5].equals(NONE)) {
                    throw new IllegalArgumentException(
                            at + "period_us, budget_us and extratime: expected '-' for " + sched);
                }
                return new StudyRow(
                        name,
                        sched.equals("credit") ? StudyRow.Sched.CREDIT : StudyRow.Sched.CREDIT2,
                        pool,
                        null,
                        false,
                        Integer.parseInt(c[6]),
                        Integer.parseInt(c[7]),
                        source,
                        studyMax,
                        line);
            }
            default ->
                throw new IllegalArgumentException(at + "sched '" + sched + "': expected rtds, credit or credit2");
        }
    }

    private static long micros(String value, String column, String at) {
        if (!MICROS.matcher(value).matches() || Long.parseLong(value) == 0) {
            throw new IllegalArgumentException(
                    at + column + " '" + value + "': expected a whole number of microseconds");
        }
        return Long.parseLong(value);
    }
}
