package org.itsrt.stack.kafka;

import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs {@code kafka-storage} ({@code kafka.tools.StorageTool}) on arguments read from a file, one
 * per line, which it deletes first: the SCRAM users' passwords of {@code format --add-scram} must
 * not show on the process's command line.
 */
public final class StorageFormatMain {

    private StorageFormatMain() {}

    public static void main(String[] args) throws Throwable {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: StorageFormatMain ARGUMENTS_FILE (one argument per line)");
        }
        Path file = Path.of(args[0]);
        List<String> arguments = Files.readAllLines(file, StandardCharsets.UTF_8);
        Files.delete(file);
        // By name, like BrokerMain: the broker is a run-time dependency only.
        try {
            Class.forName("kafka.tools.StorageTool")
                    .getMethod("main", String[].class)
                    .invoke(null, (Object) arguments.toArray(String[]::new));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
