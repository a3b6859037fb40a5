package org.itsrt.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka client properties read from a file ({@code --kafka-config FILE}, the convention of Kafka's
 * own tools, e.g. {@code kafka-console-producer.sh --producer.config}): security protocol, SASL
 * mechanism and JAAS line, trust and key stores. Every command that creates a Kafka client applies
 * the same file to each client it creates, over its own defaults, so one file moves the whole
 * suite onto a secured cluster.
 *
 * <p>The values may hold passwords ({@code sasl.jaas.config}, {@code ssl.*.password}): print
 * {@link #describe()} or {@link #redacted()}, never {@link #properties()}. The file is passed on by
 * path (the Flink job, child processes), never by value on a command line, so no password shows in
 * a process list.
 */
public final class KafkaClientConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** What a redacted value is shown as. */
    public static final String HIDDEN = "[hidden]";

    /** Keys a client may not take from the file: each command owns them. */
    private static final Set<String> OWNED_KEYS =
            Set.of("key.serializer", "value.serializer", "key.deserializer", "value.deserializer");

    /** The user name in a SASL JAAS line ({@code username="job"}): not a secret, and what errors name. */
    private static final Pattern JAAS_USER = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");

    private static final KafkaClientConfig NONE = new KafkaClientConfig(null, Map.of());

    private final String source;
    private final Map<String, String> properties;

    private KafkaClientConfig(Path source, Map<String, String> properties) {
        this.source = source == null ? null : source.toString();
        this.properties = Collections.unmodifiableMap(new TreeMap<>(properties));
    }

    /** No file: the clients' plain defaults (PLAINTEXT, no authentication). */
    public static KafkaClientConfig none() {
        return NONE;
    }

    /** {@link #load(Path)} when {@code file} is given, else {@link #none()}. */
    public static KafkaClientConfig loadOrNone(Path file) {
        return file == null ? NONE : load(file);
    }

    /**
     * Reads a Java properties file of Kafka client settings.
     *
     * @throws IllegalArgumentException naming the file and what was expected, when it is missing,
     *     unreadable, empty or sets a key the commands own (the (de)serializers)
     */
    public static KafkaClientConfig load(Path file) {
        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read.load(in);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(
                    file + ": no such file (expected a Kafka client properties file, key=value per line)");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": not a readable Kafka client properties file (key=value per"
                    + " line): " + e.getMessage());
        }
        if (read.isEmpty()) {
            throw new IllegalArgumentException(
                    file + ": no properties (expected Kafka client settings such as security.protocol=SASL_SSL)");
        }
        Map<String, String> properties = new TreeMap<>();
        for (String key : read.stringPropertyNames()) {
            if (OWNED_KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        file + ": sets " + key + ", which each command chooses itself (remove the line)");
            }
            properties.put(key, read.getProperty(key).trim());
        }
        return new KafkaClientConfig(file.toAbsolutePath().normalize(), properties);
    }

    /** The file the settings came from, if any. */
    public Optional<Path> source() {
        return Optional.ofNullable(source).map(Path::of);
    }

    public boolean isEmpty() {
        return properties.isEmpty();
    }

    /** The settings, passwords included: hand them to a Kafka client, never to a log. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The SASL user the file logs in as ({@code username} of its JAAS line), if it has one. */
    public Optional<String> user() {
        String jaas = properties.get("sasl.jaas.config");
        if (jaas == null) {
            return Optional.empty();
        }
        Matcher m = JAAS_USER.matcher(jaas);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * Who the clients are, for error messages: {@code user job (from /path/client-job.properties)},
     * or that no file was given.
     */
    public String who() {
        if (source == null) {
            return "no --kafka-config (plaintext, no authentication)";
        }
        return user().map(u -> "user " + u).orElse("no SASL user") + " (from " + source + ")";
    }

    /**
     * Writes a client properties file that {@link #load} reads back: one {@code key=value} line
     * each, readable by its owner only where the file system has POSIX permissions (it may hold a
     * password), and returns it loaded.
     *
     * @throws IllegalArgumentException for a value with a line break, which one line cannot hold
     */
    public static KafkaClientConfig write(Path file, Map<String, String> settings, String comment) throws IOException {
        StringBuilder text = new StringBuilder();
        if (comment != null) {
            comment.lines().forEach(line -> text.append("# ").append(line).append('\n'));
        }
        for (Map.Entry<String, String> e : new TreeMap<>(settings).entrySet()) {
            if (e.getValue().contains("\n") || e.getValue().contains("\r")) {
                throw new IllegalArgumentException(file + ": the value of " + e.getKey() + " has a line break");
            }
            // Properties reads a backslash as an escape; written doubled it reads back as itself.
            text.append(e.getKey())
                    .append('=')
                    .append(e.getValue().replace("\\", "\\\\"))
                    .append('\n');
        }
        writeOwnerOnly(file, text.toString());
        return load(file);
    }

    /**
     * Writes {@code text} to a new file that only its owner may read, where the file system has
     * POSIX permissions: for files that hold passwords. An existing file is replaced.
     */
    public static void writeOwnerOnly(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException noPosix) {
            Files.createFile(file);
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(text);
        }
    }

    /** Puts every setting of the file into a client's properties, over what is there. */
    public <M extends Map<? super String, Object>> M applyTo(M clientProperties) {
        clientProperties.putAll(properties);
        return clientProperties;
    }

    /** Puts every setting of the file into a client's properties, over what is there. */
    public Properties applyTo(Properties clientProperties) {
        clientProperties.putAll(properties);
        return clientProperties;
    }

    /** The settings with every secret value replaced by {@value #HIDDEN}: safe to log. */
    public Map<String, String> redacted() {
        Map<String, String> shown = new TreeMap<>();
        properties.forEach((key, value) -> shown.put(key, isSecret(key) ? HIDDEN : value));
        return shown;
    }

    /** One line for logs and reports: the file and its non-secret settings. */
    public String describe() {
        if (source == null) {
            return "no client properties file (plaintext, no authentication)";
        }
        return source + " " + redacted();
    }

    /**
     * Whether a client setting's value is a secret: passwords, keys and the JAAS line (which holds
     * the SASL password).
     */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password")
                || k.contains("secret")
                || k.equals("sasl.jaas.config")
                || k.endsWith(".key")
                || k.contains("ssl.keystore.key")
                || k.contains("credentials");
    }

    /** The same file with the same settings. */
    @Override
    public boolean equals(Object other) {
        return other instanceof KafkaClientConfig that
                && java.util.Objects.equals(source, that.source)
                && properties.equals(that.properties);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(source, properties);
    }

    @Override
    public String toString() {
        return describe();
    }
}
