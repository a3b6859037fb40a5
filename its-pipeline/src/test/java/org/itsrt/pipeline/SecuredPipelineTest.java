package org.itsrt.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.producers.send.ProducerSummary;
import org.itsrt.stack.kafka.KafkaSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline on a secured broker: producers, the job (exactly-once, so its transactions
 * pass the ACLs too; in a child Flink cluster given the job jar, as on a real cluster) and the
 * probe each connect over SASL_SSL as their own user, every record arrives, and none of the
 * generated passwords is in a file the run wrote (the broker's and Flink's logs among them) or on
 * the command line of a process it started.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SecuredPipelineTest {

    private static final Path ROOT =
            Path.of(System.getProperty("itsrt.repo.root", "..")).toAbsolutePath();
    private static final Path SAMPLE = ROOT.resolve("data/sample/synthetic-readings.csv");
    private static final Path MODEL = ROOT.resolve("models/lstm-flow");
    private static final int RECORDS = 120;
    private static final Path JOB_JAR =
            Path.of(System.getProperty("itsrt.job.jar", "../its-job/target/its-job-0.1.0-SNAPSHOT-flink-job.jar"));

    @Test
    void runsEndToEndOverSaslSslWithEachPartsOwnUserAndLeaksNoPassword(@TempDir Path dir) throws Exception {
        assertThat(JOB_JAR).as("the job jar (built by its-job's package phase)").isRegularFile();
        StackSpec stack = new StackSpec(
                new StackSpec.Broker.Local("256m", List.of(), true),
                new StackSpec.Cluster.Child(JOB_JAR.toAbsolutePath(), List.of()),
                1,
                Map.of());
        LoadSpec load = new LoadSpec(
                SAMPLE,
                LoadPlan.builder()
                        .rateHz(20)
                        .records(RECORDS)
                        .warmupRecords(0)
                        .steadyAfter(Duration.ZERO)
                        .build());
        JobSpec job = new JobSpec(MODEL, false, Map.of("engine", "linear", "exactly-once", "true"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream progress = new PrintStream(log, true, StandardCharsets.UTF_8);
        Path run = dir.resolve("run");
        Map<String, String> commandLines = new LinkedHashMap<>();
        List<String> secrets;
        Map<Path, byte[]> brokerFiles;
        RunResult result;

        Path flinkDir = dir.resolve("flink-tmp");
        Map<Path, byte[]> flinkFiles;
        try (RunningStack running = RunningStack.start(stack, flinkDir, progress)) {
            KafkaSecurity security = running.kafkaSecurity().orElseThrow();
            secrets = security.secrets();
            for (KafkaSecurity.User user : KafkaSecurity.User.values()) {
                assertThat(running.clientConfig(user).user()).contains(user.userName());
                assertThat(running.clientConfig(user).properties()).containsEntry("security.protocol", "SASL_SSL");
            }
            commandLines.putAll(commandLinesOfChildren());
            BudgetHook whileLive = pid -> {
                commandLines.putAll(commandLinesOfChildren());
                return () -> {};
            };
            result = running.measure(load, job, whileLive, run);
            brokerFiles =
                    filesUnder(security.clientFile(KafkaSecurity.User.ADMIN).getParent());
            flinkFiles = filesUnder(flinkDir);
        }

        String output = log.toString(StandardCharsets.UTF_8);
        assertThat(result.exitCode()).as(output).isZero();
        ProducerSummary producers = result.producers();
        assertThat(producers.sent()).isEqualTo(RECORDS);
        assertThat(producers.acked()).isEqualTo(RECORDS);
        ProbeSummary probe = result.probe();
        assertThat(probe.records().measured()).isEqualTo(RECORDS);
        assertThat(probe.records().shortfall()).as("records lost").isZero();
        assertThat(result.deadLetters()).isEmpty();
        assertThat(Files.readString(run.resolve("summary.md")))
                .contains("SASL_SSL")
                .as("the job's settings name its file, by path")
                .contains(KafkaSecurity.User.JOB.fileName());

        assertThat(secrets).hasSize(5);
        assertThat(commandLines.values())
                .as("the broker's and the Flink cluster's processes")
                .anyMatch(line -> line.contains("BrokerMain"))
                .anyMatch(line -> line.contains("ClusterMain"));
        Map<Path, byte[]> written = new LinkedHashMap<>(filesUnder(run));
        written.putAll(brokerFiles);
        written.putAll(flinkFiles);
        written.put(Path.of("progress log"), log.toByteArray());
        assertThat(written.keySet())
                .anyMatch(f -> f.endsWith("summary.json"))
                .anyMatch(f -> f.endsWith("broker.log"))
                .anyMatch(f -> f.endsWith("cluster.log"));
        for (String secret : secrets) {
            commandLines.forEach(
                    (pid, line) -> assertThat(line).as("command line of " + pid).doesNotContain(secret));
            written.forEach((file, bytes) -> assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                    .as(file.toString())
                    .doesNotContain(secret));
        }
    }

    /** The command lines of every process this JVM started, by pid. */
    private static Map<String, String> commandLinesOfChildren() {
        Map<String, String> lines = new LinkedHashMap<>();
        ProcessHandle.current().descendants().forEach(p -> {
            try {
                lines.put(
                        Long.toString(p.pid()),
                        Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"), StandardCharsets.UTF_8)
                                .replace('\0', ' '));
            } catch (IOException ended) {
                p.info().commandLine().ifPresent(line -> lines.put(Long.toString(p.pid()), line));
            }
        });
        return lines;
    }

    /**
     * Every file under {@code dir} with its content, but for the files meant to hold passwords:
     * the client properties files and the brokers' own configuration.
     */
    private static Map<Path, byte[]> filesUnder(Path dir) throws IOException {
        Map<Path, byte[]> files = new LinkedHashMap<>();
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> all = Files.walk(dir)) {
            all.filter(Files::isRegularFile).forEach(paths::add);
        }
        for (Path file : paths) {
            String name = file.getFileName().toString();
            boolean holdsPasswords =
                    (name.startsWith("client-") && name.endsWith(".properties")) || name.equals("server.properties");
            if (!holdsPasswords) {
                try {
                    files.put(file, Files.readAllBytes(file));
                } catch (IOException gone) {
                    // a segment rolled or a temporary file removed while walking
                }
            }
        }
        return files;
    }
}
