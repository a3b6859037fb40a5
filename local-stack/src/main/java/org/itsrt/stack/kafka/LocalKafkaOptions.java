package org.itsrt.stack.kafka;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How to start the cluster; {@link #defaults()} (one node on free ports) suits tests and the
 * embedded demo.
 *
 * @param heap            each node's heap, -Xms and -Xmx
 * @param extraJvmArgs    further options of each node's JVM
 * @param parentDir       where the cluster folder goes (null: java.io.tmpdir)
 * @param classPath       the nodes' class path, which must hold the broker
 * @param brokers         the number of nodes, 1 or 3
 * @param brokerPorts     each node's client (PLAINTEXT) port by node id, or empty for free ports
 * @param controllerPorts each node's controller (KRaft quorum) port by node id, or empty for
 *                        free ports
 * @param secure          clients connect with SASL_SSL as one of the users of
 *                        {@link KafkaSecurity}, under ACLs; else PLAINTEXT without
 *                        authentication
 * @param host            the address the client listeners bind and advertise: loopback, or
 *                        one of this machine's addresses that other machines reach
 * @param startTimeout    for each node from its start to its first answer; null: 90 s for one
 *                        node, 180 s for each of three
 */
public record LocalKafkaOptions(
        String heap,
        List<String> extraJvmArgs,
        Path parentDir,
        String classPath,
        int brokers,
        List<Integer> brokerPorts,
        List<Integer> controllerPorts,
        boolean secure,
        String host,
        Duration startTimeout) {

    /**
     * The cluster sizes offered. One node; or three, the smallest cluster in which one broker may
     * be down while the others still hold a controller majority and two in-sync replicas.
     */
    static final Set<Integer> SIZES = Set.of(1, 3);

    public LocalKafkaOptions {
        extraJvmArgs = List.copyOf(extraJvmArgs);
        brokerPorts = List.copyOf(brokerPorts);
        controllerPorts = List.copyOf(controllerPorts);
        host = host == null ? LocalKafka.LOOPBACK : host;
        if (!host.equals(LocalKafka.LOOPBACK) && (brokers != 1 || secure)) {
            throw new IllegalArgumentException("a broker listening on " + host + " is one PLAINTEXT node: "
                    + "three nodes and a secured cluster listen on loopback only");
        }
        if (!SIZES.contains(brokers)) {
            throw new IllegalArgumentException("a local Kafka cluster has 1 or 3 brokers, not " + brokers
                    + " (3: replication factor 3 with min.insync.replicas 2, so that one broker may be down)");
        }
    }

    /** One node, 512 MB heap, free ports, a folder in java.io.tmpdir, this JVM's class path. */
    public static LocalKafkaOptions defaults() {
        // This JVM's class path holds the broker (a run-time dependency of this module).
        // Another SLF4J binding beside the broker's log4j one would win by chance and log to
        // the console.
        String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("slf4j-simple"))
                .collect(Collectors.joining(File.pathSeparator));
        return new LocalKafkaOptions(
                "512m", List.of(), null, classPath, 1, List.of(), List.of(), false, LocalKafka.LOOPBACK, null);
    }

    public LocalKafkaOptions withHeap(String heap) {
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parentDir,
                classPath,
                brokers,
                brokerPorts,
                controllerPorts,
                secure,
                host,
                startTimeout);
    }

    public LocalKafkaOptions withExtraJvmArgs(List<String> args) {
        return new LocalKafkaOptions(
                heap, args, parentDir, classPath, brokers, brokerPorts, controllerPorts, secure, host, startTimeout);
    }

    /** Where the temporary cluster folder goes (default: java.io.tmpdir). */
    public LocalKafkaOptions withParentDir(Path parent) {
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parent,
                classPath,
                brokers,
                brokerPorts,
                controllerPorts,
                secure,
                host,
                startTimeout);
    }

    /**
     * The number of nodes: 1 (the default) or 3; any other count is refused.
     *
     * @throws IllegalArgumentException for a count other than 1 or 3
     */
    public LocalKafkaOptions withBrokers(int count) {
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parentDir,
                classPath,
                count,
                brokerPorts,
                controllerPorts,
                secure,
                host,
                startTimeout);
    }

    /**
     * Fixed loopback ports, by node id (the first entry is node 1's). Either list may be empty:
     * its ports are then chosen free. A list that is not empty has one port per broker; all
     * ports differ. Fixed ports are checked before any node starts: a taken one fails the start
     * naming the port and its purpose, leaving no process and no folder.
     *
     * @param brokerPorts     the client (PLAINTEXT) listeners, those of {@link #bootstrapServers()}
     * @param controllerPorts the controller (KRaft quorum) listeners
     */
    public LocalKafkaOptions withPorts(List<Integer> brokerPorts, List<Integer> controllerPorts) {
        for (int port :
                Stream.concat(brokerPorts.stream(), controllerPorts.stream()).toList()) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is not a TCP port (1..65535)");
            }
        }
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parentDir,
                classPath,
                brokers,
                brokerPorts,
                controllerPorts,
                secure,
                host,
                startTimeout);
    }

    /**
     * A secured cluster (true): one SASL_SSL listener per node, SCRAM users with random
     * passwords, ACLs and a client properties file per user ({@link KafkaSecurity}).
     */
    public LocalKafkaOptions withSecurity(boolean on) {
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parentDir,
                classPath,
                brokers,
                brokerPorts,
                controllerPorts,
                on,
                host,
                startTimeout);
    }

    /**
     * The address the client listener binds and advertises, for clients on other machines
     * (e.g. a broker in Xen's dom0 at {@code 10.0.0.1} for a job in another domain): one node,
     * PLAINTEXT; the controller stays on loopback.
     *
     * @throws IllegalArgumentException for a secured or three-node cluster
     */
    public LocalKafkaOptions withHost(String address) {
        return new LocalKafkaOptions(
                heap,
                extraJvmArgs,
                parentDir,
                classPath,
                brokers,
                brokerPorts,
                controllerPorts,
                secure,
                address,
                startTimeout);
    }

    /** How long each node may take to answer after its start: more on an emulated or loaded machine. */
    public LocalKafkaOptions withStartTimeout(Duration timeout) {
        return new LocalKafkaOptions(
                heap, extraJvmArgs, parentDir, classPath, brokers, brokerPorts, controllerPorts, secure, host, timeout);
    }
}
