package org.itsrt.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.stack.flink.EmbeddedFlink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A step whose {@code open} has not returned keeps the job from counting as ready. */
class OpenedTasksTest {

    /** Released by the test: until then the slow step's subtask is INITIALIZING. */
    private static final CountDownLatch OPEN = new CountDownLatch(1);

    @Test
    void waitsForAStepStillInItsOpenAndNamesItWhenTheTimeRunsOut(@TempDir Path dir) throws Exception {
        try (EmbeddedFlink flink = EmbeddedFlink.start(1, dir)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                    flink.restAddress().getHost(), flink.restAddress().getPort());
            env.setParallelism(1);
            env.fromSequence(0, Long.MAX_VALUE)
                    .rebalance()
                    .map(new SlowOpen())
                    .name("slow open")
                    .sinkTo(new DiscardingSink<>());
            JobClient client = env.executeAsync("opened-tasks-test");
            try {
                OpenedTasks tasks = new OpenedTasks(
                        new FlinkRest(), flink.restAddress(), client.getJobID().toHexString());
                List<String> progress = new ArrayList<>();

                assertThatThrownBy(() -> tasks.await(Duration.ofSeconds(3), () -> true, progress::add))
                        .isInstanceOf(DeadLetters.NoAnswerException.class)
                        .hasMessageStartingWith("the job did not open all its steps in time: ")
                        .hasMessageContaining("slow open")
                        .hasMessageContaining("0 of 1 subtasks open");
                assertThatThrownBy(() -> tasks.await(Duration.ofSeconds(60), () -> false, progress::add))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageStartingWith("the job stopped while ");

                OPEN.countDown();
                tasks.await(Duration.ofSeconds(60), () -> true, progress::add);

                assertThat(new FlinkRest()
                                .vertices(flink.restAddress(), client.getJobID().toHexString())
                                .orElseThrow())
                        .allSatisfy(v -> assertThat(v.allOpened()).isTrue());
            } finally {
                client.cancel().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void describesEachStepStillOpeningByItsStates() {
        String text = OpenedTasks.describe(List.of(
                new FlinkRest.Vertex("predict flow", 2, java.util.Map.of("INITIALIZING", 1, "RUNNING", 1, "FAILED", 0)),
                new FlinkRest.Vertex("route", 2, java.util.Map.of("DEPLOYING", 2))));

        assertThat(text)
                .isEqualTo("\"predict flow\" has 1 of 2 subtasks open (INITIALIZING 1, RUNNING 1); "
                        + "\"route\" has 0 of 2 subtasks open (DEPLOYING 2)");
    }

    private static final class SlowOpen extends RichMapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public void open(OpenContext context) throws InterruptedException {
            OPEN.await();
        }

        @Override
        public Long map(Long value) throws InterruptedException {
            Thread.sleep(1);
            return value;
        }
    }
}
