package org.itsrt.job.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.model.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobSettingsTest {

    private static final Path REPO = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String MODEL = REPO.resolve("models/lstm-flow").toString();
    private static final String META_HEADER = "ID\tFwy\tDir\tDistrict\tCounty\tCity\tState_PM\tAbs_PM\tLatitude\t"
            + "Longitude\tLength\tType\tLanes\tName\tUser_ID_1\tUser_ID_2\tUser_ID_3\tUser_ID_4\n";

    @TempDir
    Path dir;

    private static JobSettings parse(String... extra) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", "127.0.0.1:9092", "--model", MODEL));
        args.addAll(Arrays.asList(extra));
        return JobSettings.fromArgs(args.toArray(String[]::new));
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        JobSettings s = parse();
        assertThat(s.kafka().inputTopic()).isEqualTo("its.readings");
        assertThat(s.kafka().outputTopic()).isEqualTo("its.advice");
        assertThat(s.kafka().deadLetterTopic()).isEqualTo("its.dead-letters");
        assertThat(s.kafka().groupId()).isEqualTo("its-job");
        assertThat(s.kafka().startingOffsets()).isEqualTo(KafkaSettings.StartingOffsets.LATEST);
        assertThat(s.model().engine()).isEqualTo(Engine.DEFAULT).isEqualTo(Engine.KERNEL_BF16);
        assertThat(s.model().predictorOptions().tensorFlowIntraOpThreads()).isEqualTo(1);
        assertThat(s.model().predictorOptions().tensorFlowInterOpThreads()).isEqualTo(1);
        assertThat(s.model().predictorOptions().onnxIntraOpThreads()).isEqualTo(1);
        assertThat(s.model().predictorOptions().onnxSpinning()).isFalse();
        assertThat(s.routing().origin()).isEqualTo(764598);
        assertThat(s.routing().destination()).isEqualTo(774445);
        assertThat(s.routing().graphMeta()).isNull();
        assertThat(s.routing().detectorIds()).containsExactly(716847, 717731, 718155, 764598, 774445, 774614);
        assertThat(s.runtime().parallelism()).isZero();
        assertThat(s.runtime().bufferTimeoutMs()).isZero();
        assertThat(s.delivery().exactlyOnce()).isFalse();
        assertThat(s.delivery().checkpointIntervalMs()).isZero();
        assertThat(s.model().identity()).isFalse();
        assertThat(s.runtime().maxBatch()).isEqualTo(1);
        assertThat(s.runtime().maxBatchWaitUs()).isEqualTo(1_000);
        assertThat(s.model().label()).isEqualTo("lstm-flow/kernel-bf16");
        assertThat(s.describe())
                .contains(
                        "bootstrap-servers: 127.0.0.1:9092\n",
                        "model-label: lstm-flow/kernel-bf16\n",
                        "checkpoint-interval-ms: 0 (off)\n");
        assertThat(s.toString()).startsWith("JobSettings[bootstrap-servers=127.0.0.1:9092, ");
    }

    @Test
    void everyOptionIsRead() {
        JobSettings s = parse(
                "--input-topic",
                "in",
                "--output-topic",
                "out",
                "--dead-letter-topic",
                "dlq",
                "--group-id",
                "g1",
                "--starting-offsets",
                "earliest",
                "--engine",
                "linear",
                "--tf-intra-op-threads",
                "2",
                "--tf-inter-op-threads",
                "0",
                "--onnx-intra-op-threads",
                "2",
                "--origin",
                "764598",
                "--destination",
                "717731",
                "--parallelism",
                "3",
                "--buffer-timeout-ms",
                "-1",
                "--exactly-once",
                "--transactional-id-prefix",
                "tx",
                "--max-batch",
                "8",
                "--max-batch-wait-us",
                "250",
                "--consumer.fetch.max.wait.ms",
                "10",
                "--producer.acks",
                "1");
        assertThat(s.kafka().inputTopic()).isEqualTo("in");
        assertThat(s.kafka().outputTopic()).isEqualTo("out");
        assertThat(s.kafka().deadLetterTopic()).isEqualTo("dlq");
        assertThat(s.kafka().groupId()).isEqualTo("g1");
        assertThat(s.kafka().startingOffsets()).isEqualTo(KafkaSettings.StartingOffsets.EARLIEST);
        assertThat(s.model().engine()).isEqualTo(Engine.LINEAR);
        assertThat(s.model().predictorOptions().tensorFlowIntraOpThreads()).isEqualTo(2);
        assertThat(s.model().predictorOptions().tensorFlowInterOpThreads()).isZero();
        assertThat(s.model().predictorOptions().onnxIntraOpThreads()).isEqualTo(2);
        assertThat(s.routing().destination()).isEqualTo(717731);
        assertThat(s.runtime().parallelism()).isEqualTo(3);
        assertThat(s.runtime().bufferTimeoutMs()).isEqualTo(-1);
        assertThat(s.delivery().exactlyOnce()).isTrue();
        assertThat(s.delivery().checkpointIntervalMs())
                .as("exactly-once default interval")
                .isEqualTo(1_000);
        assertThat(s.delivery().transactionalIdPrefix()).isEqualTo("tx");
        assertThat(s.runtime().maxBatch()).isEqualTo(8);
        assertThat(s.runtime().maxBatchWaitUs()).isEqualTo(250);
        assertThat(s.model().label()).isEqualTo("lstm-flow/linear");
        assertThat(s.kafka().consumerProperties()).containsEntry("fetch.max.wait.ms", "10");
        assertThat(KafkaJobIO.of(s).producerProperties())
                .containsEntry("acks", "1")
                .containsEntry("linger.ms", "0")
                .containsEntry("transaction.timeout.ms", KafkaJobIO.TRANSACTION_TIMEOUT_MS);
    }

    @Test
    void theKafkaConfigFileReachesTheSourceAndTheSinksButOnlyItsPathIsShown() throws Exception {
        Path file = Files.writeString(
                dir.resolve("client-job.properties"),
                "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                        + "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"job\" password=\"job-secret\";\nacks=1\n");

        JobSettings s = parse("--kafka-config", file.toString(), "--producer.acks", "all");

        assertThat(s.kafka().clientConfig().user()).contains("job");
        assertThat(KafkaJobIO.of(s).producerProperties())
                .containsEntry("security.protocol", "SASL_SSL")
                .as("--producer.KEY wins over the file")
                .containsEntry("acks", "all");
        assertThat(s.asMap())
                .containsEntry("kafka-config", file.toAbsolutePath().toString());
        assertThat(s.toString()).doesNotContain("job-secret");
        JobSettings copy = roundTrip(s);
        assertThat(copy.kafka().clientConfig().properties())
                .isEqualTo(s.kafka().clientConfig().properties());
    }

    @Test
    void aMissingKafkaConfigFileIsNamed() {
        Path missing = dir.resolve("absent.properties");
        assertThatThrownBy(() -> parse("--kafka-config", missing.toString()))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageContaining("--kafka-config")
                .hasMessageContaining(missing + ": no such file");
    }

    private static JobSettings roundTrip(JobSettings settings) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(settings);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (JobSettings) in.readObject();
        }
    }

    @Test
    void producersDoNotLingerByDefault() {
        assertThat(KafkaJobIO.of(parse()).producerProperties())
                .containsEntry("linger.ms", "0")
                .doesNotContainKey("transaction.timeout.ms");
    }

    @Test
    void identityNeedsNoModel() {
        JobSettings s =
                parse("--identity", "--model", dir.resolve("nothing-here").toString());
        assertThat(s.model().identity()).isTrue();
        assertThat(s.model().label()).isEqualTo("identity");
    }

    /**
     * A bundle whose ONNX graph is missing or corrupt fails where the job is built, in one line
     * naming the option and the file, before anything is submitted.
     */
    @Test
    void anOnnxBundleWithABadGraphFailsBeforeTheJobIsBuilt() throws Exception {
        Path bundle = dir.resolve("lstm-flow");
        Files.createDirectories(bundle);
        for (String file : List.of("model.json", "scaler.json", "linear.json")) {
            Files.copy(Path.of(MODEL, file), bundle.resolve(file));
        }
        assertThatThrownBy(() -> parse("--model", bundle.toString(), "--engine", "onnx"))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith("--model: " + bundle.resolve("model.onnx") + ": missing");

        Files.writeString(bundle.resolve("model.onnx"), "not a graph");
        assertThatThrownBy(() -> parse("--model", bundle.toString(), "--engine", "onnx"))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith("--model: " + bundle.resolve("model.onnx") + ": ONNX Runtime cannot load it");

        Files.copy(Path.of(MODEL, "model.onnx"), bundle.resolve("model.onnx"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(parse("--model", bundle.toString(), "--engine", "onnx")
                        .model()
                        .label())
                .isEqualTo("lstm-flow/onnx");
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        JobSettings s = parse("--graph-meta", studyMeta().toString(), "--consumer.a", "b");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            JobSettings copy = (JobSettings) in.readObject();
            assertThat(copy.describe()).isEqualTo(s.describe());
            assertThat(copy.routing().graph().detectors()).hasSize(3);
        }
    }

    @Test
    void aMetaFileGraphIsUsed() throws Exception {
        JobSettings s = parse("--graph-meta", studyMeta().toString());
        assertThat(s.routing().detectorIds()).containsExactly(717731, 764598, 774445);
        assertThat(s.routing().hasDetector(774614)).isFalse();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--input-topic       | its readings | --input-topic: 'its readings' is not a legal Kafka topic name",
                "--input-topic       | ..           | --input-topic: '..' is not a legal Kafka topic name",
                "--output-topic      | advice/v2    | --output-topic: 'advice/v2' is not a legal Kafka topic name",
                "--dead-letter-topic | dead letters | --dead-letter-topic: 'dead letters' is not a legal Kafka topic name",
                "--output-topic      | its.readings | --output-topic: 'its.readings' is also the input topic",
                "--dead-letter-topic | its.advice   | --dead-letter-topic: 'its.advice' is also the output topic",
                "--starting-offsets  | newest       | --starting-offsets: 'newest' is neither latest nor earliest",
                "--engine            | tflite       | --engine: unknown engine 'tflite'; valid engines: kernel, tensorflow, linear, kernel-bf16, kernel-int8, onnx",
                "--origin            | 999999       | --origin: detector 999999 is not in the study network",
                "--destination       | 12           | --destination: detector 12 is not in the study network",
                "--destination       | 764598x      | --destination: not a whole number: '764598x'",
                "--origin            | 0            | --origin: 0 is out of range 1..",
                "--parallelism       | 0            | --parallelism: 0 is out of range 1..4096",
                "--buffer-timeout-ms | -2           | --buffer-timeout-ms: -2 is out of range -1..60000",
                "--tf-intra-op-threads | -1         | --tf-intra-op-threads: -1 is out of range 0..256",
                "--onnx-intra-op-threads | 0        | --onnx-intra-op-threads: 0 is out of range 1..256",
                "--max-batch         | 0            | --max-batch: 0 is out of range 1..4096",
                "--max-batch-wait-us | -5           | --max-batch-wait-us: -5 is out of range 0..10000000",
                "--checkpoint-interval-ms | 5       | --checkpoint-interval-ms: 5 is below Flink's minimum of 10 ms",
                "--group-id          | a b          | --group-id: 'a b' must be 1 to 200 of",
                "--identity          | maybe        | --identity: is a switch",
            })
    void aBadValueIsNamed(String option, String value, String message) {
        assertThatThrownBy(() -> parse(option, value))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith(message)
                .extracting(e -> ((JobSettingsException) e).option())
                .isEqualTo(option);
    }

    @Test
    void aTopicNameLongerThanKafkaAllowsIsNamed() {
        String longest = "t".repeat(249);
        assertThat(parse("--input-topic", longest).kafka().inputTopic()).isEqualTo(longest);
        assertThatThrownBy(() -> parse("--input-topic", longest + "t"))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith("--input-topic: '" + longest + "t' is not a legal Kafka topic name")
                .hasMessageContaining("249");
    }

    @Test
    void bootstrapServersAreRequiredAndChecked() {
        assertThatThrownBy(() -> JobSettings.fromArgs("--model", MODEL))
                .hasMessageStartingWith("--bootstrap-servers: required");
        assertThatThrownBy(() -> JobSettings.fromArgs("--bootstrap-servers", "localhost", "--model", MODEL))
                .hasMessageStartingWith("--bootstrap-servers: 'localhost' is not HOST:PORT");
        assertThatThrownBy(() -> JobSettings.fromArgs("--bootstrap-servers", "a:1,b:70000", "--model", MODEL))
                .hasMessageStartingWith("--bootstrap-servers: 'b:70000' is not HOST:PORT");
    }

    @Test
    void aMissingModelIsNamedWithItsPath() {
        Path missing = dir.resolve("no-model");
        assertThatThrownBy(() -> parse("--model", missing.toString()))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith("--model: ")
                .hasMessageContaining(missing.toString());
    }

    @Test
    void anIncompleteModelNamesTheFileAtFault() throws Exception {
        Files.createDirectories(dir.resolve("half-model"));
        assertThatThrownBy(() -> parse("--model", dir.resolve("half-model").toString()))
                .hasMessageStartingWith("--model: ")
                .hasMessageContaining(
                        dir.resolve("half-model").resolve("model.json").toString());
    }

    @Test
    void aMissingGraphFileIsNamed() {
        Path missing = dir.resolve("meta.txt");
        assertThatThrownBy(() -> parse("--graph-meta", missing.toString()))
                .hasMessage("--graph-meta: " + missing.toAbsolutePath() + " is not a readable file");
    }

    @Test
    void aMalformedGraphFileIsNamed() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad-meta.txt"), "ID\tFwy\nnot a meta file\n");
        assertThatThrownBy(() -> parse("--graph-meta", bad.toString()))
                .hasMessageStartingWith(
                        "--graph-meta: " + bad.toAbsolutePath() + ": not a usable PeMS station metadata file");
    }

    @Test
    void anUnreachableDestinationIsNamed() throws Exception {
        // Long Beach is downstream of El Segundo on the 405 S: the reverse has no route.
        assertThatThrownBy(() ->
                        parse("--graph-meta", studyMeta().toString(), "--origin", "774445", "--destination", "764598"))
                .hasMessageStartingWith(
                        "--destination: detector 764598 cannot be reached from --origin 774445 in the graph of "
                                + studyMeta().toAbsolutePath());
    }

    @Test
    void exactlyOnceNeedsCheckpoints() {
        assertThatThrownBy(() -> parse("--exactly-once", "--checkpoint-interval-ms", "0"))
                .hasMessageStartingWith("--checkpoint-interval-ms: --exactly-once commits output on checkpoints");
    }

    @Test
    void unknownOptionsAreRejected() {
        assertThatThrownBy(() -> parse("--modle", "x", "--paralelism", "2"))
                .isInstanceOf(JobSettingsException.class)
                .hasMessage("--modle: unknown option (also unknown: --paralelism); see --help");
    }

    @Test
    void anOptionWithoutValueIsNamed() {
        assertThatThrownBy(() -> parse("--input-topic")).hasMessage("--input-topic: needs a value");
    }

    @Test
    void helpIsRecognisedAndListsEveryOption() {
        assertThat(JobSettings.isHelp("--bootstrap-servers", "x:1", "--help")).isTrue();
        assertThat(JobSettings.usage())
                .contains(
                        "--bootstrap-servers",
                        "--input-topic",
                        "--output-topic",
                        "--dead-letter-topic",
                        "--group-id",
                        "--starting-offsets",
                        "--model",
                        "--engine",
                        "--tf-intra-op-threads",
                        "--tf-inter-op-threads",
                        "--onnx-intra-op-threads",
                        "--origin",
                        "--destination",
                        "--graph-meta",
                        "--parallelism",
                        "--buffer-timeout-ms",
                        "--exactly-once",
                        "--checkpoint-interval-ms",
                        "--transactional-id-prefix",
                        "--identity",
                        "--max-batch",
                        "--max-batch-wait-us");
    }

    /** The three study stations on the 405 S as a PeMS metadata file. */
    private Path studyMeta() throws Exception {
        Path file = dir.resolve("d07_text_meta_test.txt");
        if (!Files.exists(file)) {
            Files.writeString(
                    file,
                    META_HEADER
                            + "764598\t405\tS\t7\t37\t22412\t22.35\t42.1\t33.928621\t-118.368522\t.52\tML\t5\tIMPERIAL\t\t\t\t\n"
                            + "717731\t405\tS\t7\t37\t\t10.2\t30.04\t33.825757\t-118.24005\t.6\tML\t4\tWILMINGTON\t\t\t\t\n"
                            + "774445\t405\tS\t7\t37\t43000\t8.1\t27.93\t33.824173\t-118.207084\t.45\tML\t3\t710\t\t\t\t\n");
        }
        return file;
    }
}
