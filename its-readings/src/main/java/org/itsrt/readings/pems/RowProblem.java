package org.itsrt.readings.pems;

/**
 * Why one row of a PeMS file cannot become a reading. Parsers throw it from deep inside a row;
 * the row loop decides, through {@link InputProblems}, whether it fails the import or is skipped.
 */
final class RowProblem extends Exception {
    private static final long serialVersionUID = 1L;

    private final String column;
    private final String reason;
    private final boolean malformed;

    /**
     * @param column    the column, e.g. {@code 'Speed (mph)' (M7)}; null for the row as a whole
     * @param reason    a short category the report counts by, e.g. {@code not a number}
     * @param detail    what was expected and what was found
     * @param malformed true when the row breaks the format (fails a strict import); false when
     *                  the format allows it but it holds no reading (a missing flow)
     */
    RowProblem(String column, String reason, String detail, boolean malformed) {
        super(detail, null, false, false);
        this.column = column;
        this.reason = reason;
        this.malformed = malformed;
    }

    static RowProblem malformed(String column, String reason, String detail) {
        return new RowProblem(column, reason, detail, true);
    }

    String column() {
        return column;
    }

    String reason() {
        return reason;
    }

    String detail() {
        return getMessage();
    }

    boolean isMalformed() {
        return malformed;
    }
}
