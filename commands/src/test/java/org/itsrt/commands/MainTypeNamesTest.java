package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No two main types of the suite share a simple name: a concept is modelled once (one {@code
 * Workload}, not one per module), and a name read in a stack trace or a review points at one file.
 */
class MainTypeNamesTest {

    @Test
    void noTwoMainSourceFilesShareASimpleName() throws IOException {
        List<Path> files = RepositorySources.mainJavaFiles();
        Map<String, List<String>> byName = files.stream()
                .collect(Collectors.groupingBy(
                        f -> f.getFileName().toString(),
                        TreeMap::new,
                        Collectors.mapping(
                                f -> RepositorySources.ROOT.relativize(f).toString(), Collectors.toList())));

        assertThat(files)
                .as("the main sources found under " + RepositorySources.ROOT)
                .hasSizeGreaterThan(100);
        assertThat(byName).containsKey("Workload.java");
        assertThat(byName.values()).allSatisfy(paths -> assertThat(paths).hasSize(1));
    }
}
