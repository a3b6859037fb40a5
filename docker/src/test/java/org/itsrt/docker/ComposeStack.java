package org.itsrt.docker;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cluster.ClusterSpec;
import org.junit.jupiter.api.Assumptions;

/**
 * The compose stack as Compose itself reads it: {@code docker compose -f ... config --format
 * json} with Compose v2's static binary from {@code docker/.venv} (docker/check/check-docker.sh
 * installs it; {@code ./its test} runs that script first and sets {@value #REQUIRED_ENV}, so that
 * there a missing binary fails instead of skipping).
 */
final class ComposeStack {

    /** The shape docker/compose.yaml runs: two JobManagers (ZooKeeper HA), one TaskManager with one slot, one broker. */
    static final ClusterSpec SHAPE = ClusterSpec.defaults().withJobManagers(2);

    static final String REQUIRED_ENV = "ITS_DOCKER_CHECKS";

    /** Variables of the compose file that must not leak into a check of its defaults. */
    private static final List<String> STACK_VARIABLES = List.of(
            "ITS_RUN",
            "ITS_RECORDS",
            "ITS_RATE",
            "ITS_WARMUP",
            "ITS_PARALLELISM",
            "ITS_CHECKPOINT_INTERVAL_MS",
            "ITS_PUBLISH_ADDRESS",
            "ITS_MESSAGING_CPUS",
            "ITS_REALTIME_CPUS",
            "ITS_UID",
            "ITS_GID");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ComposeStack() {}

    static Path root() {
        return ProjectPaths.locate().root();
    }

    static Path docker() {
        return root().resolve("docker");
    }

    /** The study rows' override files. */
    static List<Path> rowFiles() throws IOException {
        try (Stream<Path> files = Files.list(docker().resolve("rows"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    /** Compose's binary, or the test is skipped (fails where {@value #REQUIRED_ENV}=required). */
    static Path composeBinary() throws IOException {
        Path lib = docker().resolve(".venv").resolve("lib");
        Path binary = null;
        if (Files.isDirectory(lib)) {
            try (Stream<Path> pythons = Files.list(lib)) {
                binary = pythons.map(p -> p.resolve("site-packages/compose/docker-compose"))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
            }
        }
        String why = "Compose's binary is not in docker/.venv: docker/check/check-docker.sh installs it (./its test "
                + "runs it before Maven)";
        if (binary == null && "required".equals(System.getenv(REQUIRED_ENV))) {
            fail(why);
        }
        Assumptions.assumeTrue(binary != null, why);
        return binary;
    }

    /** The resolved model of the compose file with {@code overrides}, every variable at its default. */
    static JsonNode resolve(String... overrides) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(composeBinary().toString(), "-f", "docker/compose.yaml"));
        for (String override : overrides) {
            command.addAll(List.of("-f", override));
        }
        command.addAll(List.of("config", "--format", "json"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root().toFile());
        Map<String, String> environment = builder.environment();
        STACK_VARIABLES.forEach(environment::remove);
        Path errors = Files.createTempFile("compose-config", ".err");
        try {
            Process process = builder.redirectError(errors.toFile()).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                fail(String.join(" ", command) + " failed: " + Files.readString(errors, StandardCharsets.UTF_8));
            }
            return JSON.readTree(out);
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /** A service's command (or entry point arguments) as a list of words. */
    static List<String> command(JsonNode service) {
        List<String> words = new ArrayList<>();
        service.path("command").forEach(word -> words.add(word.asText()));
        return words;
    }

    /** The value after {@code option} in a command, or null. */
    static String option(List<String> command, String option) {
        int at = command.indexOf(option);
        return at >= 0 && at + 1 < command.size() ? command.get(at + 1) : null;
    }

    /** The CPUs of a cpuset string such as {@code 0}, {@code 2-9} or {@code 0,2-3}. */
    static List<Integer> cpus(String cpuset) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : cpuset.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }
}
