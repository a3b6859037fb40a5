package org.itsrt.readings.pems;

import java.util.regex.Pattern;

/** Numbers in the clearinghouse text files, which write them like {@code 67.4}, {@code 100} or {@code .43}. */
final class TextFields {
    private static final Pattern DECIMAL = Pattern.compile("-?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");

    private TextFields() {}

    static boolean isDecimal(String field) {
        return DECIMAL.matcher(field).matches();
    }

    static boolean isInteger(String field) {
        return INTEGER.matcher(field).matches();
    }
}
