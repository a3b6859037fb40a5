package org.itsrt.cluster;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.itsrt.records.Workload;

/**
 * How a local cluster is doing, from its descriptor: which processes run, which JobManager leads,
 * the TaskManagers with their slots, the jobs, and the pipeline's topics with their in-sync
 * replicas.
 *
 * @param leader     the leading JobManager's REST address; empty when none answers
 * @param partitions empty when Kafka does not answer
 * @param problems   what is not as it should be, one line each; none for a healthy cluster
 */
public record ClusterStatus(
        ClusterDescriptor descriptor,
        List<ProcessState> processes,
        Optional<URI> leader,
        List<FlinkRest.TaskManager> taskManagers,
        List<FlinkRest.Job> jobs,
        List<PartitionState> partitions,
        List<String> problems) {

    public record ProcessState(String name, long pid, boolean alive, String log) {}

    public record PartitionState(String topic, int partition, int leader, List<Integer> replicas, List<Integer> isr) {}

    public boolean healthy() {
        return problems.isEmpty();
    }

    /** Asks every part; a part that does not answer is a problem, not an error. */
    public static ClusterStatus of(ClusterDescriptor descriptor) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        List<ProcessState> processes = new ArrayList<>();
        for (ClusterDescriptor.Part part : descriptor.processes()) {
            boolean alive = descriptor.isAlive(part);
            processes.add(new ProcessState(part.name(), part.pid(), alive, part.log()));
            if (!alive) {
                problems.add(part.name() + " (pid " + part.pid() + ") is not running; its log: " + part.log());
            }
        }
        FlinkRest rest = new FlinkRest();
        Optional<URI> leader =
                rest.leader(descriptor.restAddresses(), descriptor.flink().clientOptions());
        List<FlinkRest.TaskManager> taskManagers = List.of();
        List<FlinkRest.Job> jobs = List.of();
        if (leader.isEmpty()) {
            problems.add("no JobManager answers as leader at " + descriptor.restAddresses());
        } else {
            try {
                taskManagers = rest.taskManagers(leader.get());
                jobs = rest.jobs(leader.get());
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
            }
            int expected = descriptor.flink().taskManagers().size();
            if (taskManagers.size() != expected) {
                problems.add(taskManagers.size() + " of " + expected + " TaskManagers registered");
            }
        }
        List<PartitionState> partitions = descriptor.kafka() == null
                ? List.of()
                : partitions(descriptor.kafka().bootstrapServers(), problems);
        for (PartitionState p : partitions) {
            if (p.isr().size() < p.replicas().size()) {
                problems.add(p.topic() + "-" + p.partition() + ": in-sync replicas " + p.isr() + " of " + p.replicas());
            }
        }
        return new ClusterStatus(descriptor, processes, leader, taskManagers, jobs, partitions, problems);
    }

    private static List<PartitionState> partitions(String bootstrapServers, List<String> problems)
            throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
            Map<String, TopicDescription> topics = admin.describeTopics(Workload.STUDY.topics())
                    .allTopicNames()
                    .get(15, TimeUnit.SECONDS);
            List<PartitionState> all = new ArrayList<>();
            for (String topic : Workload.STUDY.topics()) {
                for (TopicPartitionInfo p : topics.get(topic).partitions()) {
                    all.add(new PartitionState(
                            topic,
                            p.partition(),
                            p.leader() == null ? -1 : p.leader().id(),
                            p.replicas().stream().map(Node::id).toList(),
                            p.isr().stream().map(Node::id).toList()));
                }
            }
            return all;
        } catch (ExecutionException | TimeoutException e) {
            problems.add("Kafka at " + bootstrapServers + " did not describe the pipeline's topics: "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
            return List.of();
        }
    }

    /** The status as a person reads it. */
    public String render() {
        StringBuilder text = new StringBuilder();
        text.append("cluster ")
                .append(descriptor.dir())
                .append(": ")
                .append(descriptor.shape())
                .append('\n');
        text.append("\nprocesses\n");
        for (ProcessState p : processes) {
            text.append(String.format(
                    "  %-14s pid %-8d %-8s %s%n", p.name(), p.pid(), p.alive() ? "running" : "DOWN", p.log()));
        }
        text.append("\nFlink\n");
        text.append("  JobManager leader: ")
                .append(leader.map(URI::toString).orElse("none answers"))
                .append(" (of ")
                .append(descriptor.restAddresses())
                .append(")\n");
        for (FlinkRest.TaskManager tm : taskManagers) {
            text.append(String.format(
                    "  TaskManager %s: slots %d, free %d (%s)%n", tm.id(), tm.slots(), tm.freeSlots(), tm.address()));
        }
        if (jobs.isEmpty()) {
            text.append("  jobs: none\n");
        }
        for (FlinkRest.Job job : jobs) {
            text.append(String.format("  job %s %s: %s%n", job.id(), job.name(), job.state()));
        }
        text.append(
                        descriptor.kafka() == null
                                ? "\nKafka: none in this cluster (--brokers 0)"
                                : "\nKafka " + descriptor.kafka().bootstrapServers())
                .append('\n');
        for (PartitionState p : partitions) {
            text.append(String.format(
                    "  %-16s partition %d  leader %d  replicas %s  in sync %s%n",
                    p.topic(), p.partition(), p.leader(), p.replicas(), p.isr()));
        }
        if (descriptor.zookeeper() != null) {
            text.append("\nZooKeeper ")
                    .append(descriptor.zookeeper().connectString())
                    .append('\n');
        }
        text.append('\n').append(problems.isEmpty() ? "healthy" : "problems:\n  " + String.join("\n  ", problems));
        return text.append('\n').toString();
    }
}
