package org.itsrt.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A job's state and restarts, from Flink's REST API: {@code GET /jobs/ID} ({@code state}) and the
 * job metric {@code numRestarts} ({@code GET /jobs/ID/metrics?get=numRestarts}), which counts every
 * restart of the job since it was submitted, whatever its cause.
 *
 * @param state    e.g. RUNNING, FAILED; "unknown" when the REST API did not answer
 * @param restarts -1 when the REST API did not answer
 */
public record FlinkJobState(String state, long restarts) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * How long a metric may take to appear: the REST endpoint answers from a cache that its
     * metric fetcher fills at most every {@code metrics.fetcher.update-interval} (10 s by
     * default), and a job's first request finds it empty.
     */
    static final Duration METRIC_WAIT = Duration.ofSeconds(25);

    public static FlinkJobState read(URI rest, String jobId) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        String state = "unknown";
        long restarts = -1;
        long deadline = System.nanoTime() + METRIC_WAIT.toNanos();
        try {
            JsonNode job = get(http, rest.resolve("/jobs/" + jobId));
            state = job.path("state").asText("unknown");
            while (restarts < 0 && System.nanoTime() < deadline) {
                restarts = restarts(http, rest, jobId);
                if (restarts < 0) {
                    Thread.sleep(500);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Reported as unknown: the campaign's expectations then fail, saying why.
        }
        return new FlinkJobState(state, restarts);
    }

    /**
     * Asks for the job's restarts once, so that the metric fetcher has them when they are read
     * at the end; the answer does not matter.
     */
    public static void prime(URI rest, String jobId) throws InterruptedException {
        try {
            restarts(HttpClient.newBuilder().connectTimeout(TIMEOUT).build(), rest, jobId);
        } catch (IOException | NumberFormatException e) {
            // Read again, and reported, at the end.
        }
    }

    /** -1 while the metric is not there yet. */
    private static long restarts(HttpClient http, URI rest, String jobId) throws IOException, InterruptedException {
        for (JsonNode metric : get(http, rest.resolve("/jobs/" + jobId + "/metrics?get=numRestarts"))) {
            if ("numRestarts".equals(metric.path("id").asText())) {
                return Long.parseLong(metric.path("value").asText());
            }
        }
        return -1;
    }

    private static JsonNode get(HttpClient http, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(uri + ": HTTP " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }

    /** Whether the job ran throughout: still running and never restarted. */
    public boolean steady() {
        return "RUNNING".equals(state) && restarts == 0;
    }
}
