package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small campaign end to end on the stack {@code ./its demo} starts (a KRaft broker, a standalone
 * Flink cluster given the job jar): every kind of hostile record among valid readings, and what
 * {@code ./its fuzz} expects of the job - no restart, every bad record dead-lettered once with its
 * kind's reason, every reading advised once and as in the clean run, nothing lost.
 */
class FuzzCampaignTest {

    @Test
    void theJobSurvivesEveryKindAndAdvisesTheReadingsAsACleanRunDoes(@TempDir Path dir) throws Exception {
        ProjectPaths paths = ProjectPaths.locate();
        Path model = paths.modelBundle();
        PrintStream log = System.err;
        try (RunningStack stack =
                RunningStack.start(StackSpec.local(paths.jobJar()), dir.resolve(PipelineRun.FLINK_TMP), log)) {
            KafkaEnds ends = new KafkaEnds(
                    stack.bootstrapServers(),
                    KafkaClientConfig.none(),
                    Topics.READINGS,
                    Topics.ADVICE,
                    Topics.DEAD_LETTERS);
            // Two warm-up readings per detector first, in both runs: their advice must stay out of
            // the comparison and the counts (it would show as unexpected advice).
            CampaignPlan plan = CampaignPlan.generate(330, FuzzCampaign.detectors(ends, model), 4, 12);
            CampaignResult result = new FuzzCampaign(stack, ends, model, log).run(plan);
            String report = new FuzzReport(result).write(dir.resolve("report"), List.of("test campaign"));
            Files.writeString(Path.of("target", "fuzz-campaign-test.md"), report);

            assertThat(result.fuzz().job().restarts()).as(report).isZero();
            assertThat(result.fuzz().job().state()).as(report).isEqualTo("RUNNING");
            for (CampaignResult.KindRow row : result.kinds()) {
                assertThat(row.asExpected()).as("%s%n%s", row.kind(), report).isEqualTo(row.sent());
                assertThat(row.duplicates() + row.lost() + row.wrongReason())
                        .as(row.kind())
                        .isZero();
            }
            assertThat(result.kinds()).hasSize(1 + FuzzKind.values().length);
            for (CampaignResult.ReasonRow row : result.reasons()) {
                assertThat(row.received()).as("%s%n%s", row.category(), report).isEqualTo(row.expected());
            }
            long bad = plan.records().stream().filter(r -> !r.advised()).count();
            assertThat(result.reasons().stream()
                            .mapToLong(CampaignResult.ReasonRow::received)
                            .sum())
                    .isEqualTo(bad);
            assertThat(result.lost()).isZero();
            assertThat(result.compared()).isEqualTo(plan.advised().size());
            assertThat(report).contains("every reading advised once, nothing else advised");
            assertThat(result.differences()).as(report).isEmpty();
            assertThat(result.passed()).as(report).isTrue();
            assertThat(Map.of("fuzz.md", dir.resolve("report").resolve(FuzzReport.MARKDOWN)))
                    .allSatisfy((name, file) -> assertThat(file).exists());
        }
    }
}
