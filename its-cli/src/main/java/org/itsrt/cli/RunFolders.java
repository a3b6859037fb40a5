package org.itsrt.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Where a command writes its results unless given {@code --out}: {@code results/KIND/NAME} under
 * the working directory, NAME ending in the start's UTC time, so runs sort by when they began and
 * a second run never lands in the first one's folder.
 */
public final class RunFolders {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolders() {}

    /** The start's UTC time as the folder names carry it, e.g. {@code 20261124-081500}. */
    public static String stamp() {
        return LocalDateTime.now(ZoneOffset.UTC).format(STAMP);
    }

    /** {@code out} when given, else {@code results/KIND/TIME}. */
    public static Path orDefault(Path out, String kind) {
        return out != null ? out : Path.of("results", kind, stamp());
    }

    /** {@code out} when given, else {@code results/KIND/NAME-TIME}. */
    public static Path orDefault(Path out, String kind, String name) {
        return out != null ? out : Path.of("results", kind, name + "-" + stamp());
    }

    /** Removes {@code dir} when it is empty: a run that wrote no report leaves no folder behind. */
    public static void removeIfEmpty(Path dir) {
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (java.io.IOException e) {
            // Left as it is: a folder that cannot be listed or deleted is not this run's to force.
        }
    }
}
