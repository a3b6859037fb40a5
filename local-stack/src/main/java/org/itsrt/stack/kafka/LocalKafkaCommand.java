package org.itsrt.stack.kafka;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code its kafka}: a local broker with the pipeline's topics, until Ctrl-C. */
@Command(
        name = "its kafka",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Starts a real single-node Kafka broker (KRaft) on a free loopback port, creates the "
                + "pipeline's topics, prints its bootstrap address and runs until Ctrl-C; then it stops the "
                + "broker and deletes its data.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0   stopped by Ctrl-C", "1   the broker could not start"})
public final class LocalKafkaCommand implements Callable<Integer> {

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
            description = "broker JVM heap, -Xms and -Xmx (default: ${DEFAULT-VALUE})")
    String heap;

    @Override
    public Integer call() throws InterruptedException {
        if (partitions < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--partitions must be >= 1");
        }
        LocalKafka kafka;
        try {
            kafka = LocalKafka.start(LocalKafka.Options.defaults().withHeap(heap));
        } catch (RuntimeException e) {
            System.err.println("its kafka: " + e.getMessage());
            return 1;
        }
        kafka.createTopics(topics, partitions);
        System.out.println("Kafka broker up at " + kafka.bootstrapServers() + " (pid " + kafka.pid() + "), topics "
                + String.join(", ", topics) + "; log " + kafka.logFile(1));
        System.out.println("Ctrl-C stops it and deletes " + kafka.dataDir());
        // LocalKafka's shutdown hook stops the broker on Ctrl-C; this thread only waits.
        new CountDownLatch(1).await();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalKafkaCommand()).execute(args));
    }
}
