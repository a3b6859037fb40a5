package org.itsrt.stack.kafka;

import java.time.Duration;
import java.util.List;
import org.itsrt.cli.DurationConverter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
        exitCodeList = {"0   stopped by Ctrl-C", "1   a broker could not start"})
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

    @Option(
            names = "--start-timeout",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "how long each broker may take to answer after its start, e.g. 10m on an emulated machine "
                    + "(default: 90 s for one broker, 180 s for each of three)")
    Duration startTimeout;

    @Override
    public Integer call() throws InterruptedException {
        // The command line that runs this, so that a usage error goes to its error stream.
        CommandLine cmd = spec.commandLine();
        if (partitions < 1) {
            throw new CommandLine.ParameterException(cmd, "--partitions must be >= 1");
        }
        LocalKafka.Options options;
        try {
            options = LocalKafka.Options.defaults()
                    .withHeap(heap)
                    .withBrokers(brokers.count())
                    .withSecurity(secure.given());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--brokers: " + e.getMessage());
        }
        if (startTimeout != null) {
            if (startTimeout.isZero() || startTimeout.isNegative()) {
                throw new CommandLine.ParameterException(cmd, "--start-timeout must be positive, got " + startTimeout);
            }
            options = options.withStartTimeout(startTimeout);
        }
        if (listen != null) {
            options = listening(cmd, options);
        }
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

    /** The options with --listen's address and port, or a usage error naming it. */
    private LocalKafka.Options listening(CommandLine cmd, LocalKafka.Options options) {
        int colon = listen.lastIndexOf(':');
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(listen.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 1 || port > 65535) {
            throw new CommandLine.ParameterException(
                    cmd, "--listen must be HOST:PORT with a port in 1..65535, e.g. 10.0.0.1:9092, got '" + listen + "'");
        }
        try {
            return options.withHost(listen.substring(0, colon)).withPorts(List.of(port), List.of());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--listen: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalKafkaCommand()).execute(args));
    }
}
