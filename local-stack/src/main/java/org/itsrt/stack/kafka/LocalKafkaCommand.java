package org.itsrt.stack.kafka;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code its kafka}: a local broker (or a cluster of three) with the pipeline's topics, until Ctrl-C. */
@Command(
        name = "its kafka",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Starts a real Kafka broker (KRaft), or a cluster of three, on free loopback ports, "
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

    @Override
    public Integer call() throws InterruptedException {
        if (partitions < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--partitions must be >= 1");
        }
        LocalKafka.Options options;
        try {
            options = LocalKafka.Options.defaults()
                    .withHeap(heap)
                    .withBrokers(brokers.count())
                    .withSecurity(secure.given());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--brokers: " + e.getMessage());
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

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalKafkaCommand()).execute(args));
    }
}
