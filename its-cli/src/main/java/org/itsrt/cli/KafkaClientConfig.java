package org.itsrt.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

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

    @Override
    public String toString() {
        return describe();
    }
}
