package org.itsrt.pipeline;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run on a Flink cluster it did not start asks that cluster first: a JobManager that is gone
 * ends the run in one line, before any job is submitted.
 */
class ExistingClusterAnswersTest {

    @Test
    void aJobManagerThatDoesNotAnswerEndsTheRunInOneLineNamingTheAddress(@TempDir Path dir) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path jar = Files.writeString(dir.resolve("job.jar"), "not read here");
        URI rest = URI.create("http://127.0.0.1:" + closedPort);

        assertThatThrownBy(() ->
                        RunningStack.requireAnswer(new StackSpec.Cluster.Existing(rest, jar, OptionalLong.empty())))
                .isInstanceOf(JobStartException.class)
                .hasMessage("the Flink cluster at " + rest
                        + " does not answer on its REST API (GET /overview): is its JobManager running?");
    }
}
