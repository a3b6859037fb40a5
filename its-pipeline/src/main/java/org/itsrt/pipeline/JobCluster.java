package org.itsrt.pipeline;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.stack.flink.EmbeddedFlink;
import org.itsrt.stack.flink.LocalFlink;
import org.itsrt.stack.flink.StandaloneFlink;
import org.itsrt.stack.flink.StandaloneFlinkOptions;
import org.itsrt.stack.zookeeper.LocalZooKeeper;

/**
 * Where the demo's job runs: a Flink cluster reached over REST, either in this JVM, or as a child
 * process that receives the job jar like a real cluster, or a cluster that already runs
 * elsewhere (a session cluster, the study's real-time VM), which receives the job jar too.
 */
interface JobCluster extends AutoCloseable {

    /** How the cluster is deployed, for reports. */
    enum Kind {
        IN_PROCESS,
        CHILD,
        STANDALONE,
        EXISTING
    }

    URI restAddress();

    /** An environment that submits to this cluster. */
    StreamExecutionEnvironment environment();

    /** The process the job's operators run in, when it is not this one. */
    OptionalLong pid();

    /** One line for the run's report. */
    String describe();

    /**
     * The cluster's JVMs on this host by name ({@code jobmanager}, {@code taskmanager-1}, ...), for
     * profiling; empty for a cluster in this JVM or elsewhere.
     */
    default java.util.Map<String, Long> processes() {
        return java.util.Map.of();
    }

    @Override
    void close() throws Exception;

    /** Flink's option that spreads a job's slots evenly over the TaskManagers. */
    String LOAD_BALANCE_MODE = "taskmanager.load-balance.mode";

    static JobCluster start(Kind kind, int slots, Path workDir, Path jobJar, List<String> jvmArgs) throws Exception {
        return switch (kind) {
            case IN_PROCESS -> inProcess(EmbeddedFlink.start(slots, workDir));
            case CHILD -> child(slots, workDir, jobJar, jvmArgs);
            case STANDALONE -> throw new IllegalArgumentException("a standalone cluster is started by standalone()");
            case EXISTING -> throw new IllegalArgumentException("an existing cluster is not started: see existing()");
        };
    }

    /**
     * A cluster that runs already, reached at its REST address; its lib/ must hold what the job
     * jar leaves out (docs/job.md, section 2). It is left running; only the job is cancelled.
     *
     * @param taskManagerPid the process that runs the job's tasks, where it is on this host
     */
    static JobCluster existing(
            URI rest, Path jobJar, OptionalLong taskManagerPid, java.util.Map<String, String> clientOptions) {
        requireJobJar(jobJar);
        return new JobCluster() {
            @Override
            public URI restAddress() {
                return rest;
            }

            @Override
            public StreamExecutionEnvironment environment() {
                // With the cluster's high-availability options the client asks ZooKeeper for the
                // leader rather than using the address: a job is followed across a failover.
                return StreamExecutionEnvironment.createRemoteEnvironment(
                        rest.getHost(),
                        rest.getPort(),
                        org.apache.flink.configuration.Configuration.fromMap(clientOptions),
                        jobJar.toString());
            }

            @Override
            public OptionalLong pid() {
                return taskManagerPid;
            }

            @Override
            public String describe() {
                return "existing cluster at " + rest + " (job jar " + jobJar.getFileName()
                        + (taskManagerPid.isPresent() ? ", TaskManager pid " + taskManagerPid.getAsLong() : "") + ")";
            }

            @Override
            public void close() {
                // Not ours to stop.
            }
        };
    }

    /**
     * A standalone session cluster started for the run: a JobManager process and
     * {@code taskManagers} TaskManager processes (with {@code ha} a ZooKeeper server and leader
     * election), each a process of its own; the job jar is submitted as to any real cluster.
     *
     * @param jvmArgs options for every cluster JVM
     */
    static JobCluster standalone(
            int slots, Path workDir, Path jobJar, List<String> jvmArgs, int taskManagers, boolean ha) {
        requireJobJar(jobJar);
        LocalZooKeeper zooKeeper =
                ha ? LocalZooKeeper.start(LocalZooKeeper.Options.defaults().withParentDir(workDir)) : null;
        StandaloneFlink flink;
        try {
            StandaloneFlinkOptions.Builder options = StandaloneFlinkOptions.builder()
                    .taskManagers(taskManagers)
                    .slotsPerTaskManager(slots)
                    .jvmArgs(jvmArgs)
                    .parentDir(workDir)
                    .zooKeeperQuorum(zooKeeper == null ? null : zooKeeper.connectString());
            if (taskManagers > 1) {
                // Each TaskManager has as many slots as the job's parallelism (so one can take the
                // whole job when another dies); without this Flink fills the first TaskManager's
                // slots and the others idle: a parallelism-2 job on two TaskManagers ran both
                // subtasks in one.
                options.flinkOptions(Map.of(LOAD_BALANCE_MODE, "SLOTS"));
            }
            flink = StandaloneFlink.start(options.build());
        } catch (RuntimeException e) {
            if (zooKeeper != null) {
                zooKeeper.close();
            }
            throw e;
        }
        return new JobCluster() {
            @Override
            public URI restAddress() {
                return flink.restAddress();
            }

            @Override
            public StreamExecutionEnvironment environment() {
                return StreamExecutionEnvironment.createRemoteEnvironment(
                        flink.restAddress().getHost(), flink.restAddress().getPort(), jobJar.toString());
            }

            @Override
            public OptionalLong pid() {
                // The job's operators run in the TaskManagers; with one, that is where a budget goes.
                return OptionalLong.of(flink.taskManagerPids().get(0));
            }

            @Override
            public java.util.Map<String, Long> processes() {
                java.util.Map<String, Long> pids = new java.util.LinkedHashMap<>();
                List<Long> jobManagers = flink.jobManagerPids();
                for (int i = 0; i < jobManagers.size(); i++) {
                    pids.put(jobManagers.size() == 1 ? "jobmanager" : "jobmanager-" + (i + 1), jobManagers.get(i));
                }
                List<Long> taskManagers = flink.taskManagerPids();
                for (int i = 0; i < taskManagers.size(); i++) {
                    pids.put("taskmanager-" + (i + 1), taskManagers.get(i));
                }
                return pids;
            }

            @Override
            public String describe() {
                return "standalone cluster (JobManager pid " + flink.jobManagerPid() + ", TaskManager pid"
                        + (taskManagers == 1 ? " " : "s ")
                        + flink.taskManagerPids().stream()
                                .map(String::valueOf)
                                .collect(java.util.stream.Collectors.joining(", "))
                        + (zooKeeper != null ? ", ZooKeeper HA at " + zooKeeper.connectString() : "")
                        + ", job jar " + jobJar.getFileName() + "), web UI was " + flink.restAddress();
            }

            @Override
            public void close() {
                flink.close();
                if (zooKeeper != null) {
                    zooKeeper.close();
                }
            }
        };
    }

    private static void requireJobJar(Path jobJar) {
        if (jobJar == null || !Files.isRegularFile(jobJar)) {
            throw new IllegalArgumentException(
                    "--job-jar: no such file: " + jobJar + " (built by `mvn -pl its-job package`)");
        }
    }

    private static JobCluster inProcess(EmbeddedFlink flink) {
        return new JobCluster() {
            @Override
            public URI restAddress() {
                return flink.restAddress();
            }

            @Override
            public StreamExecutionEnvironment environment() {
                // The job's classes are on this JVM's class path: nothing to ship.
                return StreamExecutionEnvironment.createRemoteEnvironment(
                        flink.restAddress().getHost(), flink.restAddress().getPort());
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.empty();
            }

            @Override
            public String describe() {
                return "MiniCluster in this process, web UI was " + flink.restAddress();
            }

            @Override
            public void close() throws Exception {
                flink.close();
            }
        };
    }

    private static JobCluster child(int slots, Path workDir, Path jobJar, List<String> jvmArgs) {
        requireJobJar(jobJar);
        LocalFlink flink = LocalFlink.start(LocalFlink.Options.defaults()
                .withSlots(slots)
                .withParentDir(workDir)
                .withJvmArgs(jvmArgs));
        return new JobCluster() {
            @Override
            public URI restAddress() {
                return flink.restAddress();
            }

            @Override
            public StreamExecutionEnvironment environment() {
                // As `flink run` does: the job jar travels with the job graph and is loaded child-first.
                return StreamExecutionEnvironment.createRemoteEnvironment(
                        flink.restAddress().getHost(), flink.restAddress().getPort(), jobJar.toString());
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.of(flink.pid());
            }

            @Override
            public java.util.Map<String, Long> processes() {
                return java.util.Map.of("flink (MiniCluster)", flink.pid());
            }

            @Override
            public String describe() {
                return "MiniCluster as a child process (pid " + flink.pid() + ", job jar " + jobJar.getFileName()
                        + "), web UI was " + flink.restAddress();
            }

            @Override
            public void close() {
                flink.close();
            }
        };
    }
}
