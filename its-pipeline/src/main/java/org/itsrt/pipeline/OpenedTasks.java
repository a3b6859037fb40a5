package org.itsrt.pipeline;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.itsrt.cluster.FlinkRest;

/**
 * The second half of a job's readiness: every subtask has opened its operators.
 *
 * <p>The dead-letter handshake ({@link DeadLetters#awaitPipeline}) shows that the source and the
 * parse step take records, but not the steps after a network shuffle: the predict step opens its
 * model and warms it in {@code open} (thousands of calls), and until that returns its subtasks are
 * INITIALIZING. Natively that is a second; on an emulated machine it took minutes after the parse
 * step answered, and a load started in between measured the job's start rather than the job. So the
 * run also waits, on Flink's REST API, until no subtask is still opening.
 */
final class OpenedTasks {

    private static final Duration POLL_EVERY = Duration.ofMillis(500);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);

    private final FlinkRest rest;
    private final URI address;
    private final String jobId;

    OpenedTasks(FlinkRest rest, URI address, String jobId) {
        this.rest = rest;
        this.address = address;
        this.jobId = jobId;
    }

    /**
     * Waits until every vertex of the job has all its subtasks open.
     *
     * @param timeout      how long it may take
     * @param stillRunning false stops the wait (the job failed)
     * @param progress     told which vertices are still opening, every 30 s of waiting
     * @return how long it waited
     * @throws DeadLetters.NoAnswerException naming the vertices still opening when {@code timeout} passed
     * @throws IllegalStateException when the job stopped first
     */
    Duration await(Duration timeout, BooleanSupplier stillRunning, Consumer<String> progress)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextProgress = start + PROGRESS_EVERY.toNanos();
        // What the JobManager said last: a busy one (an emulated machine) may miss a poll.
        String state = "the JobManager at " + address + " did not answer GET /jobs/" + jobId;
        while (true) {
            Optional<List<FlinkRest.Vertex>> vertices = rest.vertices(address, jobId);
            if (vertices.isPresent()) {
                List<FlinkRest.Vertex> opening =
                        vertices.get().stream().filter(v -> !v.allOpened()).toList();
                if (opening.isEmpty()) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
                state = describe(opening);
            }
            if (!stillRunning.getAsBoolean()) {
                throw new IllegalStateException("the job stopped while " + state);
            }
            long now = System.nanoTime();
            if (now >= deadline) {
                throw new DeadLetters.NoAnswerException("the job did not open all its steps in time: " + state);
            }
            if (now >= nextProgress) {
                progress.accept(state + ", " + Duration.ofNanos(now - start).toSeconds() + " s so far");
                nextProgress = now + PROGRESS_EVERY.toNanos();
            }
            Thread.sleep(POLL_EVERY.toMillis());
        }
    }

    /** e.g. {@code "predict flow" has 0 of 2 subtasks open (INITIALIZING 2)}. */
    static String describe(List<FlinkRest.Vertex> opening) {
        return opening.stream()
                .map(v -> "\"" + v.name() + "\" has " + v.opened() + " of " + v.parallelism() + " subtasks open ("
                        + v.tasks().entrySet().stream()
                                .filter(e -> e.getValue() > 0)
                                .sorted(java.util.Map.Entry.comparingByKey())
                                .map(e -> e.getKey() + " " + e.getValue())
                                .collect(Collectors.joining(", "))
                        + ")")
                .collect(Collectors.joining("; "));
    }
}
