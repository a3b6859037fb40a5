package org.itsrt.pipeline;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * What a pipeline runs on: a Kafka broker and a Flink cluster, each started for the run or one
 * that already runs, and which CPUs the parts may use.
 *
 * @param broker the topics' broker
 * @param cluster where the job runs
 * @param slots  task slots of a cluster the run starts: the job's parallelism
 * @param pins   part ({@code broker}, {@code flink}, {@code clients}) to a CPU list ({@code 0}, {@code 0-1},
 *               {@code 0,2}), pinned with taskset once started
 */
public record StackSpec(Broker broker, Cluster cluster, int slots, Map<String, String> pins) {

    /** The parts that can be pinned: the local broker, the child cluster, this JVM (producers and probe). */
    public static final List<String> PINNABLE = List.of("broker", "flink", "clients");

    public StackSpec {
        pins = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pins));
        if (slots < 1) {
            throw new IllegalArgumentException("slots (the job's parallelism) must be >= 1, got " + slots);
        }
        for (Map.Entry<String, String> pin : pins.entrySet()) {
            if (!PINNABLE.contains(pin.getKey())) {
                throw new IllegalArgumentException(
                        "--pin " + pin.getKey() + ": the parts are " + new TreeSet<>(PINNABLE));
            }
            if (!pin.getValue().matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
                throw new IllegalArgumentException("--pin " + pin.getKey() + ": a CPU list like 1, 0-1 or 0,2 is "
                        + "required, got " + pin.getValue());
            }
        }
        if (pins.containsKey("broker") && broker instanceof Broker.Existing) {
            throw new IllegalArgumentException(
                    "--pin broker: the broker at --bootstrap-servers is not the run's to pin");
        }
        if (pins.containsKey("flink") && !(cluster instanceof Cluster.Child)) {
            throw new IllegalArgumentException("--pin flink needs the child cluster (the cluster's own process)");
        }
    }

    /** A local broker and a child cluster, nothing pinned: what {@code ./its demo} runs by default. */
    public static StackSpec local(Path jobJar) {
        return new StackSpec(
                new Broker.Local(Broker.Local.DEFAULT_HEAP, List.of()),
                new Cluster.Child(jobJar, List.of()),
                1,
                Map.of());
    }

    /** The topics' broker. */
    public sealed interface Broker {

        /** One line for reports. */
        String describe();

        /**
         * A KRaft broker started for the run as a child JVM, removed afterwards.
         *
         * @param jvmArgs options for its JVM; a collector chosen here replaces the default G1 with a 20 ms pause goal
         */
        record Local(String heap, List<String> jvmArgs) implements Broker {
            public static final String DEFAULT_HEAP = "512m";

            public Local {
                jvmArgs = List.copyOf(jvmArgs);
            }

            @Override
            public String describe() {
                return "KRaft, child process (heap " + heap
                        + (jvmArgs.isEmpty() ? "" : ", " + String.join(" ", jvmArgs)) + ")";
            }
        }

        /** A Kafka cluster that already runs; the pipeline's topics are created there when missing. */
        record Existing(String bootstrapServers) implements Broker {
            @Override
            public String describe() {
                return "existing cluster at " + bootstrapServers;
            }
        }
    }

    /** Where the job runs. */
    public sealed interface Cluster {

        /** A MiniCluster in this JVM, sharing its heap with the producers and the probe. */
        record InProcess() implements Cluster {}

        /**
         * A MiniCluster in a child JVM whose class path is a Flink lib/ (Flink, TensorFlow Java), given
         * the job jar as {@code flink run} gives it: child-first class loading, its own heap and process.
         */
        record Child(Path jobJar, List<String> jvmArgs) implements Cluster {
            public Child {
                jvmArgs = List.copyOf(jvmArgs);
                requireJobJar(jobJar);
            }
        }

        /**
         * A cluster that already runs, reached at its REST address, given the job jar; its lib/ holds what
         * the job jar leaves out (docs/job.md). It is left running; the job is cancelled.
         *
         * @param taskManagerPid the process that runs the job's tasks, where it is on this host (what a
         *                       Linux budget is applied to)
         */
        record Existing(URI rest, Path jobJar, OptionalLong taskManagerPid) implements Cluster {
            public Existing {
                if (rest.getHost() == null || rest.getPort() < 0) {
                    throw new IllegalArgumentException("--flink-rest must be like http://HOST:PORT, got " + rest);
                }
                requireJobJar(jobJar);
            }
        }

        private static void requireJobJar(Path jobJar) {
            if (jobJar == null || !Files.isRegularFile(jobJar)) {
                throw new IllegalArgumentException(
                        "--job-jar: no such file: " + jobJar + " (built by `mvn -pl its-job -am package`)");
            }
        }
    }
}
