package org.itsrt.stack.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Topics;

/**
 * What a secured local cluster needs, made fresh at each start in the cluster folder: a CA and a
 * broker key store made with the JDK's {@code keytool}, random passwords, SCRAM-SHA-512 users, the
 * ACLs that give each part of the pipeline what it needs and no more, and one client properties
 * file per user.
 *
 * <p>Users: {@code admin} (super user: creates topics and ACLs, brokers talk to each other as it),
 * {@code job} (reads {@value Topics#READINGS}, writes {@value Topics#ADVICE} and
 * {@value Topics#DEAD_LETTERS}, with transactions), {@code producer} (writes
 * {@value Topics#READINGS}) and {@code probe} (reads {@value Topics#ADVICE}).
 *
 * <p>Passwords reach the broker by file (its server.properties, readable by its owner only) and
 * keytool through its environment, never on a command line.
 */
public final class KafkaSecurity {

    /** The users and the file each one's clients take with {@code --kafka-config}. */
    public enum User {
        ADMIN("admin"),
        JOB("job"),
        PRODUCER("producer"),
        PROBE("probe");

        private final String name;

        User(String name) {
            this.name = name;
        }

        /** The SASL user name. */
        public String userName() {
            return name;
        }

        /** The client properties file's name in the cluster folder. */
        public String fileName() {
            return "client-" + name + ".properties";
        }
    }

    /** The SASL mechanism of every user; SCRAM credentials live in the cluster's metadata. */
    public static final String MECHANISM = "SCRAM-SHA-512";

    /**
     * Prefixes of the consumer groups and transactional ids the ACLs allow: the job's defaults
     * ({@code --group-id}, {@code --transactional-id-prefix}) and the probe's fresh group per run.
     */
    public static final String JOB_PREFIX = "its-job";

    public static final String PROBE_GROUP_PREFIX = "its-probe";

    /** The subject of the brokers' certificate: the principal brokers reach the controllers as. */
    static final String BROKER_DN = "CN=its-kafka-broker";

    private static final String TLS_DIR = "tls";
    private static final String CA_PEM = "ca.pem";
    private static final String BROKER_KEYSTORE = "broker.p12";
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);
    private static final String STORE_PASSWORD_VARIABLE = "ITS_KAFKA_STORE_PASSWORD";
    /** Long enough that guessing is out of the question; letters and digits only, for the JAAS line. */
    private static final int PASSWORD_LENGTH = 32;

    private static final String SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private final Path dir;
    private final String storePassword;
    private final Map<User, String> passwords;

    private KafkaSecurity(Path dir, String storePassword, Map<User, String> passwords) {
        this.dir = dir;
        this.storePassword = storePassword;
        this.passwords = passwords;
    }

    /**
     * Makes the CA, the brokers' key store and the passwords in {@code clusterDir}; the client files
     * are written by {@link #writeClientFiles} once the brokers' address is known.
     *
     * @throws IOException naming the keytool step that failed, with its output
     */
    static KafkaSecurity create(Path clusterDir) throws IOException {
        SecureRandom random = new SecureRandom();
        Map<User, String> passwords = new LinkedHashMap<>();
        for (User user : User.values()) {
            passwords.put(user, password(random));
        }
        KafkaSecurity security = new KafkaSecurity(clusterDir, password(random), passwords);
        security.makeStores();
        return security;
    }

    private static String password(SecureRandom random) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder p = new StringBuilder(PASSWORD_LENGTH);
        for (int i = 0; i < PASSWORD_LENGTH; i++) {
            p.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return p.toString();
    }

    /**
     * A CA, whose certificate clients trust (PEM, no password), and one key pair for every broker
     * (they all listen on 127.0.0.1) signed by it. The CA's private key is deleted once it has
     * signed: nothing else is ever signed with it.
     */
    private void makeStores() throws IOException {
        Path tls = Files.createDirectories(dir.resolve(TLS_DIR));
        String ca = tls.resolve("ca.p12").toString();
        String broker = tls.resolve(BROKER_KEYSTORE).toString();
        String csr = tls.resolve("broker.csr").toString();
        String signed = tls.resolve("broker.pem").toString();
        String store = "-storepass:env";
        keytool(
                tls,
                "CA key pair",
                "-genkeypair",
                "-alias",
                "ca",
                "-dname",
                "CN=its-kafka-local-ca",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "30",
                "-ext",
                "bc:c",
                "-storetype",
                "PKCS12",
                "-keystore",
                ca,
                store,
                STORE_PASSWORD_VARIABLE);
        keytool(
                tls,
                "CA certificate",
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                store,
                STORE_PASSWORD_VARIABLE,
                "-file",
                tls.resolve(CA_PEM).toString());
        keytool(
                tls,
                "broker key pair",
                "-genkeypair",
                "-alias",
                "broker",
                "-dname",
                BROKER_DN,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "30",
                "-storetype",
                "PKCS12",
                "-keystore",
                broker,
                store,
                STORE_PASSWORD_VARIABLE);
        keytool(
                tls,
                "broker certificate request",
                "-certreq",
                "-alias",
                "broker",
                "-keystore",
                broker,
                store,
                STORE_PASSWORD_VARIABLE,
                "-file",
                csr);
        // The address clients connect to is in the certificate, so clients keep verifying the
        // host name (ssl.endpoint.identification.algorithm=https, Kafka's default).
        keytool(
                tls,
                "signing the broker certificate",
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                ca,
                store,
                STORE_PASSWORD_VARIABLE,
                "-infile",
                csr,
                "-outfile",
                signed,
                "-rfc",
                "-validity",
                "30",
                "-ext",
                "SAN=IP:127.0.0.1,DNS:localhost",
                "-ext",
                "KU=digitalSignature,keyEncipherment",
                "-ext",
                "EKU=serverAuth,clientAuth");
        keytool(
                tls,
                "importing the CA certificate",
                "-importcert",
                "-noprompt",
                "-alias",
                "ca",
                "-file",
                tls.resolve(CA_PEM).toString(),
                "-keystore",
                broker,
                store,
                STORE_PASSWORD_VARIABLE);
        keytool(
                tls,
                "importing the broker certificate",
                "-importcert",
                "-alias",
                "broker",
                "-file",
                signed,
                "-keystore",
                broker,
                store,
                STORE_PASSWORD_VARIABLE);
        Files.delete(Path.of(ca));
        Files.delete(Path.of(csr));
    }

    private void keytool(Path tls, String step, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Path out = tls.resolve("keytool.out");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        // The password through the environment (-storepass:env): a command line is visible to
        // every user of the host.
        builder.environment().put(STORE_PASSWORD_VARIABLE, storePassword);
        Process process = builder.start();
        try {
            boolean ended = process.waitFor(KEYTOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended || process.exitValue() != 0) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IOException("keytool (" + step + ") "
                        + (ended ? "failed with exit code " + process.exitValue() : "did not end in time") + ": "
                        + Files.readString(out, StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during keytool (" + step + ")", e);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The PEM file of the CA that signed the brokers' certificate: what clients trust. */
    public Path caCertificate() {
        return dir.resolve(TLS_DIR).resolve(CA_PEM);
    }

    /** Every password made for this start, for checks that none of them leaks into a log or report. */
    public List<String> secrets() {
        List<String> all = new ArrayList<>(passwords.values());
        all.add(storePassword);
        return all;
    }

    /** The client properties file of {@code user}, written by {@link #writeClientFiles}. */
    public Path clientFile(User user) {
        return dir.resolve(user.fileName());
    }

    /** {@code user}'s client settings as the file holds them. */
    public KafkaClientConfig clientConfig(User user) {
        return KafkaClientConfig.load(clientFile(user));
    }

    /** Writes {@code client-USER.properties} for every user into the cluster folder. */
    void writeClientFiles(String bootstrapServers) throws IOException {
        for (User user : User.values()) {
            KafkaClientConfig.write(
                    clientFile(user),
                    clientSettings(user),
                    "Kafka client settings of user " + user.userName() + " for the local cluster at "
                            + bootstrapServers + ".\nPass with --kafka-config; made at the cluster's start,"
                            + " valid until it stops.");
        }
    }

    /** A user's client settings: SASL_SSL, SCRAM with its password, the CA to trust. */
    Map<String, String> clientSettings(User user) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", MECHANISM);
        p.put("sasl.jaas.config", jaas(user));
        // PEM: a trust store of certificates only, which needs no password.
        p.put("ssl.truststore.type", "PEM");
        p.put("ssl.truststore.location", caCertificate().toString());
        return p;
    }

    private String jaas(User user) {
        return SCRAM_LOGIN + " required username=\"" + user.userName() + "\" password=\"" + passwords.get(user) + "\";";
    }

    /**
     * A node's listener and security settings. Clients have one listener, SASL_SSL; brokers reach
     * each other on it as {@code admin}. The controller listener takes TLS with client
     * certificates only: only a holder of the brokers' key store gets in, as {@value #BROKER_DN}.
     */
    Map<String, String> brokerSettings(int brokerPort, int controllerPort) {
        Map<String, String> p = new LinkedHashMap<>();
        String address = "127.0.0.1:";
        p.put("listeners", "SASL_SSL://" + address + brokerPort + ",CONTROLLER://" + address + controllerPort);
        p.put("advertised.listeners", "SASL_SSL://" + address + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "SASL_SSL");
        p.put("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:SSL");
        p.put("sasl.enabled.mechanisms", MECHANISM);
        p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
        p.put(
                "listener.name.sasl_ssl." + MECHANISM.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                jaas(User.ADMIN));
        p.put("ssl.keystore.type", "PKCS12");
        p.put(
                "ssl.keystore.location",
                dir.resolve(TLS_DIR).resolve(BROKER_KEYSTORE).toString());
        p.put("ssl.keystore.password", storePassword);
        p.put("ssl.key.password", storePassword);
        p.put("ssl.truststore.type", "PEM");
        p.put("ssl.truststore.location", caCertificate().toString());
        p.put("listener.name.controller.ssl.client.auth", "required");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + User.ADMIN.userName() + ";User:" + BROKER_DN);
        // No ACL, no access (Kafka's default, written out because the whole set-up rests on it).
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    /**
     * The {@code kafka-storage format} arguments that store every user's SCRAM credentials in the
     * cluster's first metadata: they hold the passwords, so they go to the formatting JVM in a
     * file ({@link StorageFormatMain}).
     */
    List<String> scramFormatArguments() {
        List<String> args = new ArrayList<>();
        for (User user : User.values()) {
            args.add("--add-scram");
            args.add(MECHANISM + "=[name=" + user.userName() + ",password=" + passwords.get(user) + "]");
        }
        return args;
    }

    /** The ACLs of every user but {@code admin}, who is a super user. */
    static List<AclBinding> acls() {
        List<AclBinding> acls = new ArrayList<>();
        String job = "User:" + User.JOB.userName();
        String producer = "User:" + User.PRODUCER.userName();
        String probe = "User:" + User.PROBE.userName();
        allow(acls, job, ResourceType.TOPIC, Topics.READINGS, PatternType.LITERAL, AclOperation.READ);
        allow(acls, job, ResourceType.GROUP, JOB_PREFIX, PatternType.PREFIXED, AclOperation.READ);
        for (String topic : List.of(Topics.ADVICE, Topics.DEAD_LETTERS)) {
            allow(acls, job, ResourceType.TOPIC, topic, PatternType.LITERAL, AclOperation.WRITE);
        }
        // Flink's exactly-once sink: transactions under its prefix (WRITE), and finding lingering
        // ones after a restore (DESCRIBE).
        allow(acls, job, ResourceType.TRANSACTIONAL_ID, JOB_PREFIX, PatternType.PREFIXED, AclOperation.WRITE);
        allow(acls, job, ResourceType.TRANSACTIONAL_ID, JOB_PREFIX, PatternType.PREFIXED, AclOperation.DESCRIBE);
        allow(acls, producer, ResourceType.TOPIC, Topics.READINGS, PatternType.LITERAL, AclOperation.WRITE);
        // Idempotent producers: a topic WRITE suffices since Kafka 2.8; the cluster grant is what
        // brokers before it asked for, kept so the same ACLs serve them too.
        for (String user : List.of(job, producer)) {
            allow(
                    acls,
                    user,
                    ResourceType.CLUSTER,
                    "kafka-cluster",
                    PatternType.LITERAL,
                    AclOperation.IDEMPOTENT_WRITE);
        }
        allow(acls, probe, ResourceType.TOPIC, Topics.ADVICE, PatternType.LITERAL, AclOperation.READ);
        allow(acls, probe, ResourceType.GROUP, PROBE_GROUP_PREFIX, PatternType.PREFIXED, AclOperation.READ);
        return acls;
    }

    private static void allow(
            List<AclBinding> acls,
            String principal,
            ResourceType type,
            String name,
            PatternType pattern,
            AclOperation operation) {
        acls.add(new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW)));
    }
}
