package org.itsrt.pipeline.jobjar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.job.ItsJob;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.pipeline.DeadLetters;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.stack.flink.LocalFlink;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job as a cluster runs it: the job jar submitted over REST to a separate cluster process
 * whose class path is the {@code lib/} of docs/job.md (Flink and TensorFlow, none of the job),
 * so every submission's classes come from a child-first class loader of their own. With the
 * TensorFlow engine, a second submission into the same TaskManager JVM is where a TensorFlow
 * loaded from the job jar fails (its native library is already bound to the first class loader);
 * from the cluster's class path both submissions predict, and predict the same.
 */
class JobJarOnLocalClusterTest {

    static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    static final Path JOB_JAR =
            Path.of(System.getProperty("itsrt.job.jar", "../its-job/target/its-job-0.1.0-SNAPSHOT-flink-job.jar"));
    static final int RECORDS = 12;

    @Test
    void theJobJarRunsTwiceInOneClusterWithTensorFlowFromTheClusterClassPath(@TempDir Path dir) throws Exception {
        assertThat(JOB_JAR).as("the job jar (built by its-job's package phase)").isRegularFile();
        List<ReadingRecord> readings = readings();
        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults().withParentDir(dir));
                LocalFlink flink =
                        LocalFlink.start(LocalFlink.Options.defaults().withParentDir(dir))) {
            kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
            assertThat(flink.restAddress().getHost()).isEqualTo("127.0.0.1");

            Map<String, Double> first = runOnce(kafka, flink.restAddress(), JOB_JAR, readings, 0);
            Map<String, Double> second = runOnce(kafka, flink.restAddress(), JOB_JAR, readings, 1000);

            assertThat(first).hasSize(RECORDS);
            assertThat(first.values())
                    .allSatisfy(flow -> assertThat(flow).isFinite().isNotNegative());
            assertThat(second).isEqualTo(first);
            assertThat(flink.isAlive()).as("the cluster process").isTrue();
            assertThat(Files.readString(flink.dir().resolve("cluster.out"))).doesNotContain("libprotobuf FATAL");
        }
    }

    /**
     * The control: the same two submissions of a job jar that carries TensorFlow itself, on a
     * cluster without the parent-first setting. The first predicts; the second cannot load the
     * native library its own class loader needs. Without this failure mode the test above would
     * prove nothing.
     */
    @Test
    void withoutTheClusterSetUpTheSecondSubmissionOfATensorFlowJobFails(@TempDir Path dir) throws Exception {
        Path fatJar = jarWithTensorFlow(dir.resolve("job-with-tensorflow.jar"));
        List<ReadingRecord> readings = readings();
        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults().withParentDir(dir));
                LocalFlink flink = LocalFlink.start(LocalFlink.Options.defaults()
                        .withParentDir(dir)
                        .withFlinkOptions(Map.of("classloader.parent-first-patterns.additional", "none.such")))) {
            kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
            assertThat(runOnce(kafka, flink.restAddress(), fatJar, readings, 0)).hasSize(RECORDS);
            Throwable failure = catchThrowable(() -> runOnce(kafka, flink.restAddress(), fatJar, readings, 1000));
            assertThat(failure).as("the second submission").isNotNull();
            // TensorFlow's native library, loaded again for the second class loader, registers its
            // protobuf descriptors a second time and aborts: the whole TaskManager JVM is gone.
            flink.awaitExit(Duration.ofSeconds(30));
            assertThat(flink.isAlive()).as("the cluster process").isFalse();
            assertThat(Files.readString(flink.dir().resolve("cluster.out"))).contains("libprotobuf FATAL");
        }
    }

    /** The job jar with TensorFlow's jars (docs/job.md's lib/ set) unpacked into it. */
    private static Path jarWithTensorFlow(Path target) throws Exception {
        Path lib = JOB_JAR.getParent().resolve("flink-lib");
        List<Path> sources = new ArrayList<>(List.of(JOB_JAR));
        try (var files = Files.list(lib)) {
            files.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(sources::add);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(target))) {
            for (Path source : sources) {
                try (var in = new java.util.zip.ZipFile(source.toFile())) {
                    for (var entries = in.entries(); entries.hasMoreElements(); ) {
                        var entry = entries.nextElement();
                        // Signatures of the unpacked jars would not match the merged jar.
                        if (!seen.add(entry.getName()) || entry.getName().matches("META-INF/.*\\.(SF|RSA|DSA)")) {
                            continue;
                        }
                        out.putNextEntry(new java.util.zip.ZipEntry(entry.getName()));
                        try (var data = in.getInputStream(entry)) {
                            data.transferTo(out);
                        }
                        out.closeEntry();
                    }
                }
            }
        }
        return target;
    }

    /** Submits a job jar over REST, sends the readings under seq offset+i, collects their advice, cancels. */
    static Map<String, Double> runOnce(
            LocalKafka kafka, URI restAddress, Path jar, List<ReadingRecord> readings, long seqOffset)
            throws Exception {
        String bootstrap = kafka.bootstrapServers();
        JobSettings settings = JobSettings.fromArgs(
                "--bootstrap-servers",
                bootstrap,
                "--engine",
                "tensorflow",
                "--model",
                ROOT.resolve("models/lstm-flow").toAbsolutePath().toString(),
                "--warmup-calls",
                "10");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                restAddress.getHost(), restAddress.getPort(), jar.toString());
        ItsJob.build(env, settings, KafkaJobIO.of(settings));
        JobClient job = env.executeAsync("submission at seq " + seqOffset);
        try {
            new DeadLetters(bootstrap, "its.readings", "its.dead-letters")
                    .awaitPipeline(Duration.ofSeconds(120), () -> isRunning(job));
            send(bootstrap, readings, seqOffset);
            return collect(bootstrap, seqOffset, job);
        } finally {
            if (isRunning(job)) {
                job.cancel().get(30, TimeUnit.SECONDS);
                awaitTerminal(job);
            }
        }
    }

    static List<ReadingRecord> readings() {
        Map<Long, List<Reading>> byStation = new TreeMap<>();
        for (Reading r : new SyntheticGenerator(7).generate(LocalDate.of(2018, 3, 5), 1)) {
            byStation.computeIfAbsent(r.stationId(), k -> new ArrayList<>()).add(r);
        }
        List<ReadingRecord> records = new ArrayList<>();
        int n = 0;
        for (List<Reading> station : byStation.values()) {
            for (int start = 0; start < 2 && n < RECORDS; start++, n++) {
                double[] flows = new double[ReadingRecord.WINDOW];
                double[] speeds = new double[ReadingRecord.WINDOW];
                for (int i = 0; i < ReadingRecord.WINDOW; i++) {
                    Reading r = station.get(start + i);
                    flows[i] = r.flow();
                    speeds[i] = r.hasSpeed() ? r.speed() : Double.NaN;
                }
                Reading newest = station.get(start + ReadingRecord.WINDOW - 1);
                records.add(new ReadingRecord(newest.stationId(), newest.tsUtc(), flows, speeds, n, 0, 0));
            }
        }
        return records;
    }

    private static void send(String bootstrap, List<ReadingRecord> readings, long seqOffset) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ReadingRecord r : readings) {
                ReadingRecord numbered = new ReadingRecord(
                        r.detector(),
                        r.ts(),
                        r.flow(),
                        r.speed(),
                        seqOffset + r.seq(),
                        System.nanoTime(),
                        System.nanoTime());
                producer.send(new ProducerRecord<>(
                                "its.readings",
                                Long.toString(r.detector()).getBytes(StandardCharsets.UTF_8),
                                RecordJson.write(numbered)))
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Predicted flow by detector and seq (less the offset), for the advice of this submission. */
    private static Map<String, Double> collect(String bootstrap, long seqOffset, JobClient job) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "job-jar-test-" + seqOffset);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Double> predictions = new TreeMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("its.advice"));
            while (predictions.size() < RECORDS) {
                assertThat(System.nanoTime())
                        .as("advice for all %d readings within 120 s, got %d", RECORDS, predictions.size())
                        .isLessThan(deadline);
                assertThat(isRunning(job)).as("the job is running").isTrue();
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    AdviceRecord advice = RecordJson.readAdvice(record.value());
                    if (advice.seq() >= seqOffset && advice.seq() < seqOffset + RECORDS) {
                        assertThat(advice.model()).endsWith("/tensorflow");
                        predictions.put(advice.detector() + "#" + (advice.seq() - seqOffset), advice.predictedFlow());
                    }
                }
            }
        }
        return predictions;
    }

    private static boolean isRunning(JobClient job) {
        try {
            return !job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState();
        } catch (Exception e) {
            return false;
        }
    }

    private static void awaitTerminal(JobClient job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JobStatus status;
        while (!(status = job.getJobStatus().get(10, TimeUnit.SECONDS)).isGloballyTerminalState()
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(status).isEqualTo(JobStatus.CANCELED);
    }
}
