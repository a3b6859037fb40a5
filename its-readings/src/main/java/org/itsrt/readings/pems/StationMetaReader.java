package org.itsrt.readings.pems;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.Reading;

/**
 * Reads a PeMS clearinghouse station metadata file ({@code dNN_text_meta_YYYY_MM_DD.txt}):
 * tab-separated, one header row {@code ID Fwy Dir District County City State_PM Abs_PM Latitude
 * Longitude Length Type Lanes Name User_ID_1..4}. Columns are found by name; trailing empty
 * fields may be left off a line. Empty {@code Latitude}, {@code Longitude} and {@code Length}
 * (stations PeMS has not located) read as NaN. A {@code User_ID_1} that is a synthetic source
 * label ({@code synthetic:seed=N}, as {@code its generate --detectors} writes) marks a generated
 * station ({@link StationMeta#syntheticSource()}); any other user id is PeMS's and ignored.
 */
public final class StationMetaReader {
    /** The columns a metadata file must have, in the published order. */
    public static final List<String> REQUIRED_COLUMNS = List.of(
            "ID",
            "Fwy",
            "Dir",
            "District",
            "County",
            "City",
            "State_PM",
            "Abs_PM",
            "Latitude",
            "Longitude",
            "Length",
            "Type",
            "Lanes",
            "Name");

    /**
     * The published file's four user columns, after {@link #REQUIRED_COLUMNS}; the first carries a
     * synthetic district's label.
     */
    public static final List<String> USER_ID_COLUMNS = List.of("User_ID_1", "User_ID_2", "User_ID_3", "User_ID_4");

    private StationMetaReader() {}

    /**
     * Reads every station of the file.
     *
     * @return stations by VDS id, in file order
     * @throws BadInputException naming the line and column of the first malformed field, or a
     *                           missing header column or a station listed twice
     */
    public static Map<Long, StationMeta> read(Path file) throws IOException {
        String name = file.toString();
        Map<Long, StationMeta> stations = new LinkedHashMap<>();
        Map<Long, Integer> lineOfStation = new HashMap<>();
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String headerLine = lines.readLine();
            if (headerLine == null) {
                throw new BadInputException(name, null, null, "empty file: expected a header row");
            }
            Map<String, Integer> columns = header(name, headerLine);
            int lineNumber = 1;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                if (fields.length > columns.size()) {
                    throw new BadInputException(
                            name,
                            "line " + lineNumber,
                            null,
                            "expected at most " + columns.size() + " tab-separated fields, got " + fields.length);
                }
                StationMeta station = new Line(name, lineNumber, columns, fields).station();
                Integer earlier = lineOfStation.putIfAbsent(station.id(), lineNumber);
                if (earlier != null) {
                    throw new BadInputException(
                            name,
                            "line " + lineNumber,
                            "'ID'",
                            "station " + station.id() + " is listed twice (first on line " + earlier + ")");
                }
                stations.put(station.id(), station);
            }
        }
        return Collections.unmodifiableMap(stations);
    }

    private static Map<String, Integer> header(String file, String headerLine) {
        List<String> names = Arrays.asList(headerLine.split("\t", -1));
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            columns.put(names.get(i).trim(), i);
        }
        for (String required : REQUIRED_COLUMNS) {
            if (!columns.containsKey(required)) {
                throw new BadInputException(
                        file,
                        "line 1",
                        "'" + required + "'",
                        "the header has no such column (expected " + String.join(" ", REQUIRED_COLUMNS) + " ...)");
            }
        }
        return columns;
    }

    /** One data line, with the header's column positions. */
    private record Line(String file, int number, Map<String, Integer> columns, String[] fields) {

        StationMeta station() {
            String direction = text("Dir");
            if (direction.length() != 1 || "NSEW".indexOf(direction.charAt(0)) < 0) {
                throw bad("Dir", "expected one of N, S, E, W");
            }
            int lanes = integer("Lanes");
            if (lanes < 1) {
                throw bad("Lanes", "expected a lane count >= 1");
            }
            return StationMeta.builder()
                    .id(integer("ID"))
                    .carriageway(integer("Fwy"), direction.charAt(0))
                    .district(integer("District"))
                    .county(text("County"))
                    .city(text("City"))
                    .postmiles(text("State_PM"), decimal("Abs_PM"))
                    .position(decimalOrNaN("Latitude"), decimalOrNaN("Longitude"))
                    .lengthMiles(decimalOrNaN("Length"))
                    .lanes(required("Type"), lanes)
                    .name(text("Name"))
                    .syntheticSource(syntheticSource())
                    .build();
        }

        private String syntheticSource() {
            if (!columns.containsKey(USER_ID_COLUMNS.get(0))) {
                return "";
            }
            String userId = text(USER_ID_COLUMNS.get(0));
            return userId.startsWith("synthetic") && Reading.isKnownSource(userId) ? userId : "";
        }

        private String text(String column) {
            int index = columns.get(column);
            return index < fields.length ? fields[index].trim() : "";
        }

        private String required(String column) {
            String value = text(column);
            if (value.isEmpty()) {
                throw bad(column, "expected a value");
            }
            return value;
        }

        private int integer(String column) {
            String value = required(column);
            if (!TextFields.isInteger(value) || value.length() > 9) {
                throw bad(column, "expected an integer");
            }
            return Integer.parseInt(value);
        }

        private double decimal(String column) {
            String value = required(column);
            if (!TextFields.isDecimal(value)) {
                throw bad(column, "expected a number");
            }
            return Double.parseDouble(value);
        }

        private double decimalOrNaN(String column) {
            return text(column).isEmpty() ? Double.NaN : decimal(column);
        }

        private BadInputException bad(String column, String expected) {
            return new BadInputException(
                    file, "line " + number, "'" + column + "'", expected + ", got '" + text(column) + "'");
        }
    }
}
