package org.itsrt.cli;

import java.math.BigDecimal;

/** Numbers as a person writes them in a message or a report. */
public final class Numbers {

    private Numbers() {}

    /** The shortest plain decimal of {@code value}: {@code 3}, {@code 2.5}, {@code 0.9}, never {@code 3.0} or {@code 1E+1}. */
    public static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
