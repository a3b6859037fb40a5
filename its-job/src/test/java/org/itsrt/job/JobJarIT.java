package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packaged job jar is what {@code flink run} needs: the job with its Kafka connector and
 * client, without Flink itself, logging or TensorFlow (which goes to the cluster's lib/ folder,
 * see docs/job.md), and it starts against Flink's own jars.
 */
class JobJarIT {

    private static final Path JAR = Path.of(System.getProperty("itsrt.job.jar", "target/its-job-flink-job.jar"));
    private static final Path FLINK_LIB = Path.of(System.getProperty("itsrt.job.flink.lib", "target/flink-lib"));
    private static final Path FLINK_CLASSPATH = Path.of("target", "flink-classpath.txt");

    @Test
    void holdsTheJobAndItsConnectorButNotFlinkOrTensorFlow() throws Exception {
        List<String> entries = new ArrayList<>();
        String mainClass;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            jar.stream().forEach(e -> entries.add(e.getName()));
            mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
        }
        assertThat(mainClass).isEqualTo(ItsJob.class.getName());
        assertThat(entries)
                .contains(
                        "org/itsrt/job/ItsJob.class",
                        "org/itsrt/model/FlowPredictors.class",
                        "org/itsrt/routing/Router.class",
                        "org/jgrapht/alg/shortestpath/AStarShortestPath.class",
                        "org/apache/flink/connector/kafka/source/KafkaSource.class",
                        "org/apache/flink/connector/kafka/sink/KafkaSink.class",
                        "org/apache/kafka/clients/producer/KafkaProducer.class");
        assertThat(entries)
                .noneMatch(e -> e.startsWith("org/apache/flink/streaming/api/")
                        || e.startsWith("org/apache/flink/runtime/")
                        || e.startsWith("org/apache/flink/connector/base/")
                        || e.startsWith("org/tensorflow/")
                        || e.startsWith("org/bytedeco/")
                        || e.startsWith("com/google/protobuf/")
                        || e.startsWith("org/slf4j/")
                        || e.startsWith("org/apache/logging/log4j/"));
    }

    @Test
    void tensorFlowIsCollectedForTheClustersLibFolder() throws Exception {
        try (Stream<Path> files = Files.list(FLINK_LIB)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .anyMatch(n -> n.startsWith("tensorflow-core-api-"))
                    .anyMatch(n -> n.startsWith("tensorflow-core-native-") && n.endsWith("-linux-x86_64.jar"))
                    .anyMatch(n -> n.startsWith("javacpp-"))
                    .anyMatch(n -> n.startsWith("protobuf-java-"))
                    .anyMatch(n -> n.startsWith("ndarray-"));
        }
    }

    @Test
    void startsOnFlinksClassPathAndNamesABadOption() throws Exception {
        String classPath =
                JAR + File.pathSeparator + Files.readString(FLINK_CLASSPATH).trim() + File.pathSeparator + slf4jApi();
        Result help = java(classPath, "--help");
        assertThat(help.exit).as(help.output).isZero();
        assertThat(help.output).contains("--bootstrap-servers HOST:PORT", "--max-batch-wait-us");

        Result bad = java(classPath, "--bootstrap-servers", "127.0.0.1:9092", "--model", "no/such/model");
        assertThat(bad.exit).isNotZero();
        assertThat(bad.output).contains("--model: ", "no/such/model");
    }

    private record Result(int exit, String output) {}

    /**
     * SLF4J's API, which a Flink distribution's lib/ holds (flink-dist, beside the Log4j bridge) and
     * the job logs through, but which Flink's Maven artifacts only mark provided: taken from this
     * test's own class path, where Kafka's client brings it.
     */
    private static String slf4jApi() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> Path.of(entry).getFileName().toString().startsWith("slf4j-api-"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("slf4j-api is not on the test's class path"));
    }

    private static Result java(String classPath, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                ItsJob.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
