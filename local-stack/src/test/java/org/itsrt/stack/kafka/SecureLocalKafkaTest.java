package org.itsrt.stack.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A secured local broker: who gets in, what each user may do, and where the passwords are not. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecureLocalKafkaTest {

    @TempDir
    static Path parent;

    private static LocalKafka kafka;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.start(
                LocalKafkaOptions.defaults().withParentDir(parent).withSecurity(true));
        kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void eachUserDoesWhatItsAclsAllow() throws Exception {
        send(KafkaSecurity.User.PRODUCER, Topics.READINGS, "reading");
        send(KafkaSecurity.User.JOB, Topics.ADVICE, "advice");
        assertThat(read(KafkaSecurity.User.JOB, Topics.READINGS, "its-job")).containsExactly("reading");
        assertThat(read(KafkaSecurity.User.PROBE, Topics.ADVICE, "its-probe-test"))
                .containsExactly("advice");
    }

    @Test
    void aUserWithoutAnAclForATopicIsRefused() {
        // Refused, not left to hang: a send that waited would end in a TimeoutException instead.
        assertThatThrownBy(() -> send(KafkaSecurity.User.PROBE, Topics.READINGS, "not allowed"))
                .hasRootCauseInstanceOf(TopicAuthorizationException.class)
                .rootCause()
                .hasMessageContaining(Topics.READINGS);
    }

    @Test
    void aWrongPasswordIsRefusedAtLogin() {
        Map<String, Object> config = clientConfig(KafkaSecurity.User.PRODUCER);
        config.put(
                "sasl.jaas.config",
                ((String) config.get("sasl.jaas.config")).replaceAll("password=\"[^\"]*\"", "password=\"wrong\""));
        try (Admin admin = Admin.create(config)) {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(SaslAuthenticationException.class)
                    .hasMessageContaining("invalid credentials");
        }
    }

    @Test
    void aClientWithoutCredentialsGetsNothing() {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000);
        try (Admin admin = Admin.create(config)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
    }

    @Test
    void passwordsAreInTheClientFilesAndNowhereElse() throws Exception {
        KafkaSecurity security = kafka.security().orElseThrow();
        assertThat(security.secrets()).hasSize(5).doesNotHaveDuplicates();
        for (KafkaSecurity.User user : KafkaSecurity.User.values()) {
            KafkaClientConfig config = KafkaClientConfig.load(security.clientFile(user));
            assertThat(config.user()).contains(user.userName());
            assertThat(config.properties().get("sasl.jaas.config")).contains(passwordOf(config));
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(security.clientFile(user))))
                    .isEqualTo("rw-------");
        }
        List<String> commandLines = new ArrayList<>();
        for (long pid : kafka.pids()) {
            commandLines.add(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")));
        }
        List<Path> written;
        try (Stream<Path> files = Files.walk(kafka.dataDir())) {
            written = files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("client-"))
                    .filter(f -> !f.getFileName().toString().equals("server.properties"))
                    .filter(f -> !f.toString().contains("/data/"))
                    .toList();
        }
        assertThat(written).as("the broker's logs").isNotEmpty();
        for (String secret : security.secrets()) {
            assertThat(commandLines).noneMatch(line -> line.contains(secret));
            for (Path file : written) {
                assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
                        .as(file.toString())
                        .doesNotContain(secret);
            }
        }
    }

    private static String passwordOf(KafkaClientConfig config) {
        String jaas = config.properties().get("sasl.jaas.config");
        return jaas.replaceAll(".*password=\"([^\"]*)\".*", "$1");
    }

    private static Map<String, Object> clientConfig(KafkaSecurity.User user) {
        Map<String, Object> config = new HashMap<>();
        kafka.clientConfig(user).applyTo(config);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return config;
    }

    private static void send(KafkaSecurity.User user, String topic, String value) throws Exception {
        Map<String, Object> config = clientConfig(user);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (var producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, value)).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> read(KafkaSecurity.User user, String topic, String group) {
        Map<String, Object> config = clientConfig(user);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> read = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(Set.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (read.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(r.value());
                }
            }
        }
        return read;
    }
}
