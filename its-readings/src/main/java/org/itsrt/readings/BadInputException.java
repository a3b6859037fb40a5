package org.itsrt.readings;

/**
 * An input file does not hold what its format promises. The message names the file, the place
 * in it (a line, or a sheet row), the column and what was expected, so a user can go and look.
 */
public class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String place;
    private final String column;
    private final String problem;

    /**
     * @param file    the file as the user named it
     * @param place   where in the file, e.g. {@code line 12} or {@code sheet 'Report Data' row 7};
     *                null for the file as a whole
     * @param column  the column, e.g. {@code 'flow'} or {@code 'Speed (mph)' (M7)}; null when the
     *                problem is not in one column
     * @param problem what was expected and what was found
     */
    public BadInputException(String file, String place, String column, String problem) {
        super(describe(file, place, column, problem));
        this.file = file;
        this.place = place;
        this.column = column;
        this.problem = problem;
    }

    private static String describe(String file, String place, String column, String problem) {
        StringBuilder message = new StringBuilder(file);
        if (place != null) {
            message.append(", ").append(place);
        }
        if (column != null) {
            message.append(", column ").append(column);
        }
        return message.append(": ").append(problem).toString();
    }

    public String file() {
        return file;
    }

    public String place() {
        return place;
    }

    public String column() {
        return column;
    }

    public String problem() {
        return problem;
    }
}
