package org.itsrt.fuzz;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.district.DistrictCache;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.records.Topics;

/**
 * {@code ./its fuzz --workload district} on a running stack (docs/fuzz.md, "District campaign"):
 * the district made ready (generated into the repository's cache where it is not there), its plan
 * generated over the district graph's stations, both runs, the report written. The command only
 * parses its options and starts the stack.
 */
public final class DistrictFuzz {

    /** The fewest {@code --records}: one of each hostile reading kind and of each request fault. */
    public static final int LEAST_RECORDS = Math.max(FuzzKind.values().length, RequestFault.values().length);

    private DistrictFuzz() {}

    /** The district a plan's load names, else the default generated district. */
    public static DistrictPlan districtOf(LoadPlan load) {
        return load.district() != null
                ? load.district()
                : DistrictPlan.builder().build();
    }

    /**
     * @param warmupReadings the warm-up readings for a number of detectors
     * @param onStart        given the campaign's stop, so that Ctrl-C can end it
     * @return 0 when every expectation held, 1 otherwise
     */
    public static int run(
            RunningStack started,
            KafkaClientConfig clientConfig,
            Path model,
            DistrictPlan district,
            int records,
            long seed,
            IntUnaryOperator warmupReadings,
            Path dir,
            PrintStream log,
            Consumer<Runnable> onStart)
            throws Exception {
        DistrictCache.Ready ready = DistrictCache.ofRepository(log).resolve(district);
        KafkaEnds ends = new KafkaEnds(
                started.bootstrapServers(), clientConfig, Topics.READINGS, Topics.ADVICE, Topics.DEAD_LETTERS);
        DistrictFuzzCampaign campaign = new DistrictFuzzCampaign(started, ends, model, ready.meta(), log);
        onStart.accept(campaign::stop);
        long[] stations = campaign.stations();
        DistrictCampaignPlan plan =
                DistrictCampaignPlan.generate(records, stations, seed, warmupReadings.applyAsInt(stations.length));
        log.println("its-fuzz: district of " + stations.length + " stations: " + plan);
        Instant start = Instant.now();
        DistrictCampaignResult result = campaign.run(plan);
        List<String> facts = new ArrayList<>();
        facts.add(String.format(
                Locale.ROOT,
                "started %s; district %s (%,d stations); seed %d",
                start,
                ready.folder(),
                stations.length,
                seed));
        facts.add("readings: " + plan.readings() + ", hostile kinds as the study campaign's; route requests: "
                + plan.requests() + ", one of each fault at least");
        facts.add("stack: " + started.describe());
        facts.add("topics: " + Topics.READINGS + " -> " + Topics.PREDICTIONS + ", " + Topics.ROUTE_REQUESTS + " -> "
                + Topics.ROUTES + ", both -> " + Topics.DEAD_LETTERS);
        facts.add("clean run: a fresh district job given only the records it must predict or answer, in the same "
                + "order; then the fuzz run, another given every record; parallelism 1, lockstep (docs/fuzz.md)");
        if (!clientConfig.isEmpty()) {
            facts.add("Kafka clients: " + clientConfig.describe());
        }
        System.out.println(new DistrictFuzzReport(result).write(dir, facts));
        System.out.println("report: " + dir.resolve(FuzzReport.MARKDOWN));
        return result.passed() ? 0 : 1;
    }
}
