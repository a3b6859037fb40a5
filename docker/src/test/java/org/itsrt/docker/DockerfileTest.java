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
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * A {@code # syntax=} directive makes BuildKit fetch that Dockerfile frontend from a registry
     * before anything else: on an engine without registry access (the stand-in images' engine) the
     * build fails at its first line. Every instruction here is in the engine's built-in frontend.
     */
    @Test
    void noBuildFetchesItsDockerfileFrontendFromARegistry() throws Exception {
        for (String dockerfile : dockerfiles()) {
            assertThat(read(dockerfile).lines())
                    .as(dockerfile)
                    .noneMatch(line -> line.replace(" ", "").toLowerCase().startsWith("#syntax="));
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

    /**
     * The build stage for real, without an engine: what it copies from the repository, into an
     * empty folder, then its Maven steps with the shell, as the image build would run them (the
     * apt-get step aside: this host has gcc). A module the build needs but does not copy the
     * sources of fails here, as it would fail {@code docker build}.
     */
    @Test
    void theBuildStageBuildsFromWhatItCopies(@TempDir Path context) throws Exception {
        List<String> stage = buildStage(read("docker/Dockerfile"));
        Path out = context.resolve("out");
        Path work = Files.createDirectories(context.resolve("build"));
        List<String> runs = new ArrayList<>();
        for (String instruction : stage) {
            if (instruction.startsWith("COPY ")) {
                List<String> words = new ArrayList<>(Arrays.asList(instruction.split("\\s+")));
                words.remove(0);
                String target = words.remove(words.size() - 1);
                for (String source : words) {
                    Path from = ComposeStack.root().resolve(source);
                    // Docker's rule: a file copied to a path ending in / keeps its name there.
                    Path to = Files.isRegularFile(from) && target.endsWith("/")
                            ? work.resolve(target).resolve(from.getFileName())
                            : work.resolve(target);
                    copy(from, to);
                }
            } else if (instruction.startsWith("RUN mvn ")) {
                runs.add(instruction.substring("RUN ".length()).replace("/out", out.toString()));
            }
        }
        assertThat(runs).as("the build stage's Maven steps").hasSizeGreaterThanOrEqualTo(2);
        for (String run : runs) {
            Process process = new ProcessBuilder(
                            "sh", "-c", "mvn() { command mvn -Dstyle.color=never \"$@\"; }; " + run)
                    .directory(work.toFile())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor()).as("%s%n%s", run, tail(output)).isZero();
        }
        assertThat(out.resolve("its-job.jar")).isRegularFile();
        try (var lib = Files.list(out.resolve("flink-lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()).toList())
                    .anyMatch(n -> n.startsWith("tensorflow-core-api-"))
                    .anyMatch(n -> n.startsWith("onnxruntime-"));
        }
        try (var lib = Files.list(out.resolve("tools-lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("producers-"))
                    .anyMatch(n -> n.startsWith("latency-probe-"))
                    .noneMatch(n -> n.startsWith("local-stack-"));
        }
    }

    /** The instructions of the first stage, each on one line (continuations joined), comments left out. */
    private static List<String> buildStage(String dockerfile) {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inStage = false;
        for (String line : dockerfile.lines().toList()) {
            String trimmed = line.trim();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
                continue;
            }
            if (trimmed.startsWith("FROM ")) {
                if (inStage) {
                    break;
                }
                inStage = true;
                continue;
            }
            current.append(trimmed.endsWith("\\") ? trimmed.substring(0, trimmed.length() - 1) : trimmed)
                    .append(' ');
            if (!trimmed.endsWith("\\")) {
                instructions.add(current.toString().trim().replaceAll("\\s+", " "));
                current.setLength(0);
            }
        }
        return instructions;
    }

    private static void copy(Path source, Path target) throws Exception {
        if (Files.isDirectory(source)) {
            try (var files = Files.walk(source)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Path to = target.resolve(source.relativize(file).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(file, to);
                }
            }
        } else {
            Files.createDirectories(target.getParent());
            Files.copy(source, target);
        }
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Test
    void theFlinkImageHoldsWhatTheComposeFileRuns() throws Exception {
        String flink = read("docker/Dockerfile");
        String compose = read("docker/compose.yaml");
        assertThat(compose).contains("/opt/its-rt/bin/submit-job");
        assertThat(flink).as("the Flink image puts the submit script there").contains(" /opt/its-rt/bin/submit-job");
        // The image carries every bundle of models/; compose submits the shipped one.
        assertThat(compose).contains("/opt/its-rt/models/lstm-flow");
        assertThat(flink).contains("COPY models /opt/its-rt/models");
        assertThat(ComposeStack.root().resolve("models/lstm-flow/model.json")).isRegularFile();
        assertThat(flink).contains("COPY --chown=flink:flink docker/flink/config.yaml /opt/flink/conf/config.yaml");
        assertThat(flink).contains("/opt/flink/lib/");
    }

    /** The project's Dockerfile and the stand-in base images'. */
    private static List<String> dockerfiles() throws Exception {
        List<String> files = new ArrayList<>(DOCKERFILES);
        try (var images = Files.list(ComposeStack.root().resolve("docker/base-images"))) {
            images.map(image -> image.resolve("Dockerfile"))
                    .filter(Files::isRegularFile)
                    .map(file -> ComposeStack.root().relativize(file).toString())
                    .sorted()
                    .forEach(files::add);
        }
        assertThat(files).hasSizeGreaterThan(DOCKERFILES.size());
        return files;
    }

    private static String read(String file) throws Exception {
        Path path = ComposeStack.root().resolve(file);
        return Files.readString(path, StandardCharsets.UTF_8);
    }
}
