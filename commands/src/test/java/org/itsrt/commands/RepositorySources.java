package org.itsrt.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The main Java sources of every module of the repository, for tests that hold the code's shape. */
final class RepositorySources {

    static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    private RepositorySources() {}

    /** Every {@code MODULE/src/main/java/**.java}, module by module. */
    static List<Path> mainJavaFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path main : modules.sorted()
                    .map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> sources = Files.walk(main)) {
                    sources.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
                }
            }
        }
        return files;
    }
}
