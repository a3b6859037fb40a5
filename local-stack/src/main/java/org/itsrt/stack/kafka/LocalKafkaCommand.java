package org.itsrt.stack.kafka;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.itsrt.cli.options.StartTimeoutOption;
import org.itsrt.stack.ChildJvm;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its kafka}: a local broker (or a cluster of three) with the pipeline's topics, until Ctrl-C. */
@Command(
        name = "its kafka",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Starts a real Kafka broker (KRaft), or a cluster of three, on free loopback ports (one "
                + "broker: on --listen HOST:PORT for clients on other machines), "
                + "creates the pipeline's topics, prints the bootstrap address and runs until Ctrl-C; then it "
                + "stops the brokers and deletes their data.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0   stopped by Ctrl-C",
            "1   a broker could not start",
            "2   bad usage, or --listen's address or port not free here; nothing started"
        })
public final class LocalKafkaCommand implements Callable<Integer> {

    @Mixin
    SecureBrokerOption secure;

    @Mixin
    BrokerCountOption brokers;

    @Option(
            names = "--topics",
            split = ",",
            paramLabel = "NAME",
            description = "topics to create (default: ${DEFAULT-VALUE})",
            defaultValue = org.itsrt.records.Topics.PIPELINE_CSV)
    List<String> topics;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "1",
            description = "partitions per topic (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(
            names = "--heap",
            paramLabel = "SIZE",
            defaultValue = "512m",
            description = "each broker JVM's heap, -Xms and -Xmx (default: ${DEFAULT-VALUE})")
    String heap;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            description = "one PLAINTEXT broker whose client listener binds and advertises HOST:PORT, an address of "
                    + "this machine that other machines reach, e.g. 10.0.0.1:9092 (default: a free loopback port)")
    String listen;

    @Mixin
    StartTimeoutOption startTimeout = new StartTimeoutOption();

    @Override
    public Integer call() throws InterruptedException {
        LocalKafkaOptions options = options();
        LocalKafka kafka;
        try {
            kafka = LocalKafka.start(options);
        } catch (RuntimeException e) {
            System.err.println("its kafka: " + e.getMessage());
            return 1;
        }
        try {
            kafka.createTopics(topics, partitions);
        } catch (RuntimeException e) {
            kafka.close();
            System.err.println("its kafka: " + e.getMessage());
            return 1;
        }
        if (kafka.brokers() == 1) {
            System.out.println("Kafka broker up at " + kafka.bootstrapServers() + " (pid " + kafka.pid() + "), topics "
                    + String.join(", ", topics) + "; log " + kafka.logFile(1));
        } else {
            System.out.println("Kafka cluster of " + kafka.brokers() + " brokers up at " + kafka.bootstrapServers()
                    + ", topics " + String.join(", ", topics) + " (replication factor " + kafka.brokers() + ")");
            for (int id = 1; id <= kafka.brokers(); id++) {
                System.out.println("  broker " + id + ": port " + kafka.port(id) + ", pid "
                        + kafka.broker(id).pid() + ", log " + kafka.logFile(id));
            }
        }
        kafka.security().ifPresent(security -> {
            System.out.println("SASL_SSL with SCRAM-SHA-512 and ACLs; client properties files (pass with "
                    + "--kafka-config; they hold the passwords, made for this start only):");
            for (KafkaSecurity.User user : KafkaSecurity.User.values()) {
                System.out.println("  " + user.userName() + ": " + security.clientFile(user));
            }
        });
        System.out.println("Ctrl-C stops it and deletes " + kafka.dataDir());
        // LocalKafka's shutdown hook stops the broker on Ctrl-C; this thread only waits.
        new CountDownLatch(1).await();
        return 0;
    }

    /** The broker(s) the command line asks for, or a usage error naming the option; nothing is started. */
    LocalKafkaOptions options() {
        // The command line that runs this, so that a usage error goes to its error stream.
        CommandLine cmd = spec.commandLine();
        if (partitions < 1) {
            throw new CommandLine.ParameterException(cmd, "--partitions must be >= 1");
        }
        LocalKafkaOptions options;
        try {
            options = LocalKafkaOptions.defaults()
                    .withHeap(heap)
                    .withBrokers(brokers.count())
                    .withSecurity(secure.given());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--brokers: " + e.getMessage());
        }
        // None given: null, LocalKafka's own wait, which grows with the number of brokers.
        options = options.withStartTimeout(startTimeout.orElse(null));
        if (listen != null) {
            options = listening(cmd, options);
        }
        return options;
    }

    /**
     * The options with --listen's address and port, or a usage error naming it: a malformed
     * value, an address this machine does not have, a port taken, or a cluster it cannot serve.
     */
    private LocalKafkaOptions listening(CommandLine cmd, LocalKafkaOptions options) {
        if (brokers.count() != 1 || secure.given()) {
            throw new CommandLine.ParameterException(
                    cmd, "--listen serves one PLAINTEXT broker: give it without --brokers 3 and --secure");
        }
        int colon = listen.lastIndexOf(':');
        String host = colon > 0 ? listen.substring(0, colon) : "";
        int port = -1;
        if (colon > 0 && listen.substring(colon + 1).matches("\\d{1,5}")) {
            port = Integer.parseInt(listen.substring(colon + 1));
        }
        if (host.isBlank() || port < 1 || port > 65535) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--listen must be HOST:PORT, an address of this machine and a port in 1..65535, e.g. "
                            + "10.0.0.1:9092, got '" + listen + "'");
        }
        try {
            if (InetAddress.getByName(host).isAnyLocalAddress()) {
                throw new CommandLine.ParameterException(
                        cmd,
                        "--listen " + listen + ": the address is also what clients are told to connect to, so it "
                                + "must be one address of this machine that they reach, e.g. 10.0.0.1, not "
                                + host);
            }
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(
                    cmd, "--listen " + listen + ": " + host + " is no address (" + e.getMessage() + ")");
        }
        try {
            // Before anything starts: an address of another machine, or a port taken, named here.
            ChildJvm.requireFreePort(host, port, "the broker's client listener");
            return options.withHost(host).withPorts(List.of(port), List.of());
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--listen " + listen + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalKafkaCommand()).execute(args));
    }
}
