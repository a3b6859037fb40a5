package org.itsrt.fuzz;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.records.Topics;

/**
 * {@code ./its fuzz} of the study workload on a running stack (docs/fuzz.md): the plan generated
 * over the routing graph's detectors, both runs, the report written. The command only parses its
 * options and starts the stack; {@link DistrictFuzz} is its district counterpart.
 */
public final class StudyFuzz {

    private StudyFuzz() {}

    /**
     * @param warmupReadings the warm-up readings for a number of detectors
     * @param onStart        given the campaign's stop, so that Ctrl-C can end it
     * @return 0 when every expectation held, 1 otherwise
     */
    public static int run(
            RunningStack started,
            KafkaClientConfig clientConfig,
            Path model,
            int records,
            long seed,
            IntUnaryOperator warmupReadings,
            Path dir,
            PrintStream log,
            Consumer<Runnable> onStart)
            throws Exception {
        KafkaEnds ends = new KafkaEnds(
                started.bootstrapServers(), clientConfig, Topics.READINGS, Topics.ADVICE, Topics.DEAD_LETTERS);
        long[] detectors = FuzzCampaign.detectors(ends, model);
        CampaignPlan plan =
                CampaignPlan.generate(records, detectors, seed, warmupReadings.applyAsInt(detectors.length));
        log.println("its-fuzz: " + plan + "; kinds: " + FuzzReport.sentLine(plan.counts()));
        FuzzCampaign campaign = new FuzzCampaign(started, ends, model, log);
        onStart.accept(campaign::stop);
        Instant start = Instant.now();
        CampaignResult result = campaign.run(plan);
        String markdown = new FuzzReport(result)
                .write(dir, FuzzReport.facts(start, started.describe(), plan, records, seed, clientConfig));
        System.out.println(markdown);
        System.out.println("report: " + dir.resolve(FuzzReport.MARKDOWN));
        return result.passed() ? 0 : 1;
    }
}
