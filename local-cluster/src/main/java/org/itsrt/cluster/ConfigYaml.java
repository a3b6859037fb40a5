package org.itsrt.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cluster's {@code config.yaml} as the cluster commands read it: flat {@code key: value}
 * lines, a value single-quoted where it holds blanks (as local-stack's StandaloneFlink writes it).
 */
final class ConfigYaml {

    private ConfigYaml() {}

    /** Every key and its value, in file order. */
    static Map<String, String> read(Path file) {
        Map<String, String> options = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int colon = line.indexOf(": ");
                if (colon > 0 && !line.startsWith("#")) {
                    options.put(
                            line.substring(0, colon).trim(),
                            unquote(line.substring(colon + 2).trim()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return options;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        return value;
    }
}
