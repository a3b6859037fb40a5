package org.itsrt.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The images' builds stay in step with the repository (hadolint checks the rest: check-docker.sh). */
class DockerfileTest {

    private static final List<String> DOCKERFILES = List.of("docker/Dockerfile");

    @Test
    void everyBuildCopiesThePomOfEveryModuleBecauseMavenReadsTheWholeReactor() throws Exception {
        String rootPom = Files.readString(ComposeStack.root().resolve("pom.xml"), StandardCharsets.UTF_8);
        List<String> modules = new ArrayList<>();
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(rootPom);
        while (module.find()) {
            modules.add(module.group(1));
        }
        assertThat(modules).contains("its-job", "producers", "latency-probe", "docker");
        for (String dockerfile : DOCKERFILES) {
            String text = read(dockerfile);
            for (String name : modules) {
                assertThat(text)
                        .as(dockerfile + " copies " + name + "/pom.xml before its dependency layer")
                        .contains("COPY " + name + "/pom.xml " + name + "/");
            }
        }
    }

    @Test
    void everyFileABuildCopiesFromTheRepositoryExists() throws Exception {
        for (String dockerfile : DOCKERFILES) {
            for (String line : read(dockerfile).lines().toList()) {
                if (!line.startsWith("COPY ") || line.contains("--from=")) {
                    continue;
                }
                List<String> words = new ArrayList<>(Arrays.asList(line.trim().split("\\s+")));
                words.remove(0);
                words.removeIf(word -> word.startsWith("--"));
                for (String source : words.subList(0, words.size() - 1)) {
                    assertThat(ComposeStack.root().resolve(source))
                            .as(dockerfile + ": " + line)
                            .exists();
                }
            }
        }
    }

    @Test
    void theFlinkImageHoldsWhatTheComposeFileRuns() throws Exception {
        String flink = read("docker/Dockerfile");
        String compose = read("docker/compose.yaml");
        for (String path : List.of("/opt/its-rt/bin/submit-job", "/opt/its-rt/models/lstm-flow")) {
            assertThat(compose).contains(path);
            assertThat(flink).as("the Flink image puts something at " + path).contains(" " + path);
        }
        assertThat(flink).contains("COPY --chown=flink:flink docker/flink/config.yaml /opt/flink/conf/config.yaml");
        assertThat(flink).contains("/opt/flink/lib/");
    }

    private static String read(String file) throws Exception {
        Path path = ComposeStack.root().resolve(file);
        return Files.readString(path, StandardCharsets.UTF_8);
    }
}
