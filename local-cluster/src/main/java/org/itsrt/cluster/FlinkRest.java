package org.itsrt.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.itsrt.stack.flink.ZooKeeperLeader;

/**
 * Flink's REST API as the cluster commands read it: which JobManager leads, its TaskManagers and
 * jobs. With high availability every JobManager serves REST, and a standby hands requests on to
 * the leader, so an answer does not tell who leads: the leader is the one ZooKeeper names, as
 * Flink's own clients find it. Without high availability it is the JobManager that answers.
 */
public final class FlinkRest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** How long ZooKeeper may take to name the leader. */
    private static final Duration ZOOKEEPER_WAIT = Duration.ofSeconds(10);

    /**
     * The leading JobManager of a cluster: with high-availability options, the one ZooKeeper names
     * if its REST endpoint answers; without, the first that answers. Empty when none does.
     */
    public Optional<URI> leader(List<URI> restAddresses, Map<String, String> haOptions) throws InterruptedException {
        if (!"zookeeper".equals(haOptions.get("high-availability.type"))) {
            return leader(restAddresses);
        }
        Optional<String> named;
        try {
            named = ZooKeeperLeader.lookup(haOptions, ZOOKEEPER_WAIT);
        } catch (IOException e) {
            return Optional.empty();
        }
        for (URI address : restAddresses) {
            if (named.isPresent()
                    && URI.create(named.get()).getPort() == address.getPort()
                    && get(address.resolve("/overview")).isPresent()) {
                return Optional.of(address);
            }
        }
        return Optional.empty();
    }

    /** The first JobManager whose REST endpoint answers, or empty when none does. */
    public Optional<URI> leader(List<URI> restAddresses) throws InterruptedException {
        for (URI address : restAddresses) {
            if (get(address.resolve("/overview")).isPresent()) {
                return Optional.of(address);
            }
        }
        return Optional.empty();
    }

    /** The leader, or an error naming every address asked. */
    public URI requireLeader(List<URI> restAddresses, Map<String, String> haOptions) throws InterruptedException {
        return leader(restAddresses, haOptions)
                .orElseThrow(() -> new IllegalStateException("no Flink JobManager answered as leader at "
                        + String.join(
                                ", ", restAddresses.stream().map(URI::toString).toList())
                        + (haOptions.isEmpty()
                                ? ""
                                : " (ZooKeeper " + haOptions.get("high-availability.zookeeper.quorum") + ")")));
    }

    /** {@link #requireLeader(List, Map)} for a cluster without high availability. */
    public URI requireLeader(List<URI> restAddresses) throws InterruptedException {
        return requireLeader(restAddresses, Map.of());
    }

    /** One registered TaskManager. */
    public record TaskManager(String id, String address, int slots, int freeSlots) {}

    public List<TaskManager> taskManagers(URI leader) throws InterruptedException {
        List<TaskManager> all = new ArrayList<>();
        for (JsonNode tm : get(leader.resolve("/taskmanagers"))
                .orElseThrow(() -> noAnswer(leader, "/taskmanagers"))
                .path("taskmanagers")) {
            all.add(new TaskManager(
                    tm.path("id").asText(),
                    tm.path("path").asText(),
                    tm.path("slotsNumber").asInt(),
                    tm.path("freeSlots").asInt()));
        }
        return all;
    }

    /** One job the cluster knows of. */
    public record Job(String id, String name, String state, long startTimeMs) {}

    public List<Job> jobs(URI leader) throws InterruptedException {
        List<Job> all = new ArrayList<>();
        for (JsonNode job : get(leader.resolve("/jobs/overview"))
                .orElseThrow(() -> noAnswer(leader, "/jobs/overview"))
                .path("jobs")) {
            all.add(new Job(
                    job.path("jid").asText(),
                    job.path("name").asText(),
                    job.path("state").asText(),
                    job.path("start-time").asLong()));
        }
        return all;
    }

    /**
     * One vertex of a job (an operator chain) and how many of its subtasks are in each of Flink's
     * execution states ({@code INITIALIZING}, {@code RUNNING}, ...), as {@code GET /jobs/ID} gives.
     */
    public record Vertex(String name, int parallelism, Map<String, Integer> tasks) {

        /**
         * Subtasks whose operators are open: RUNNING or FINISHED. A subtask is INITIALIZING while
         * its operators' {@code open} runs, so a vertex whose open is slow (a model warmed there)
         * shows here when it can take records.
         */
        public int opened() {
            return tasks.getOrDefault("RUNNING", 0) + tasks.getOrDefault("FINISHED", 0);
        }

        public boolean allOpened() {
            return opened() >= parallelism;
        }
    }

    /**
     * The vertices of a job, in the order of its graph; empty when the JobManager did not answer in
     * time (a busy one may not, for a moment).
     */
    public Optional<List<Vertex>> vertices(URI leader, String jobId) throws InterruptedException {
        Optional<JsonNode> job = get(leader.resolve("/jobs/" + jobId));
        if (job.isEmpty()) {
            return Optional.empty();
        }
        List<Vertex> all = new ArrayList<>();
        for (JsonNode vertex : job.get().path("vertices")) {
            Map<String, Integer> tasks = new java.util.LinkedHashMap<>();
            vertex.path("tasks")
                    .fields()
                    .forEachRemaining(e -> tasks.put(e.getKey(), e.getValue().asInt()));
            all.add(new Vertex(
                    vertex.path("name").asText(), vertex.path("parallelism").asInt(), Map.copyOf(tasks)));
        }
        return Optional.of(all);
    }

    /** Cancels a job (as {@code flink cancel} does); true if the JobManager accepted. */
    public boolean cancel(URI leader, String jobId) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(leader.resolve("/jobs/" + jobId + "?mode=cancel"))
                            .timeout(TIMEOUT)
                            .method("PATCH", HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() / 100 == 2;
        } catch (IOException e) {
            return false;
        }
    }

    private static IllegalStateException noAnswer(URI leader, String path) {
        return new IllegalStateException("the JobManager at " + leader + " did not answer " + path);
    }

    /** The JSON of a 200 answer; empty for anything else (not the leader, not up, not Flink). */
    private Optional<JsonNode> get(URI uri) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(response.body()));
        } catch (IOException notAnswering) {
            return Optional.empty();
        }
    }
}
