package org.itsrt.experiments.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.experiments.tune.Verdict;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CapacitySearchTest {

    private static final CapacitySlo SLO = new CapacitySlo(50, 5);

    /**
     * A made-up system: p99 grows with the rate like an M/M/1 queue's sojourn time, from 5 ms at
     * no load to infinity at {@code saturation}; above {@code lagFrom} the consumer falls behind by
     * the excess share of the rate (ms per s), so the lag rule binds there even where p99 would not.
     */
    private static LoadEvaluator system(double saturation, double lagFrom) {
        return (point, rate, rep) -> {
            double p99 = rate >= saturation ? 10_000 : 5 / (1 - rate / saturation);
            double slope = rate <= lagFrom ? 0.1 : 1000 * (rate - lagFrom) / rate;
            return answers(0, p99, 0, new LagTrend(slope, 15));
        };
    }

    /** A run of the requests axis: its readings' predictions steady within the target, its answers as given. */
    static LoadRun answers(int exitCode, double p99Ms, long lost, LagTrend lag) {
        return new LoadRun(
                exitCode,
                List.of(
                        new StreamRun(Workload.Stream.PREDICTIONS, 5, 4_000, 0, new LagTrend(0.1, 15)),
                        new StreamRun(Workload.Stream.ROUTES, p99Ms, 1_000, lost, lag)),
                null);
    }

    private static CapacitySearch.Settings settings(double min, double max, double resolution, int reps, int maxReps) {
        return new CapacitySearch.Settings(CapacityAxis.REQUESTS, min, max, resolution, reps, maxReps, SLO);
    }

    private static CapacitySearch.Settings detectors(double min, double max, double resolution) {
        return new CapacitySearch.Settings(CapacityAxis.DETECTORS, min, max, resolution, 1, 1, SLO);
    }

    /**
     * A made-up district: the predictions' p99 grows with the readings per second like an M/M/1
     * queue's, saturating at {@code saturation} detectors; the answers of a fixed request rate
     * stay within the target until {@code answersFailFrom} detectors, where the job's share for
     * them runs out first.
     */
    private static LoadEvaluator district(double saturation, double answersFailFrom) {
        return (point, detectors, rep) -> {
            double p99 = detectors >= saturation ? 10_000 : 5 / (1 - detectors / saturation);
            LagTrend flat = new LagTrend(0.1, 15);
            return new LoadRun(
                    0,
                    List.of(
                            new StreamRun(Workload.Stream.PREDICTIONS, p99, (long) detectors * 10, 0, flat),
                            new StreamRun(Workload.Stream.ROUTES, detectors < answersFailFrom ? 20 : 90, 500, 0, flat)),
                    null);
        };
    }

    /** The rate where the made-up p99 reaches the target: 5 / (1 - r/s) = 50 at r = 0.9 s. */
    @ParameterizedTest
    @ValueSource(doubles = {900, 1_700, 3_333, 6_100})
    void findsTheRateWhereTheP99CurveCrossesTheTarget(double saturation) {
        double truth = 0.9 * saturation;
        CapacityResult result = new CapacitySearch(
                        settings(250, 16_000, 50, 1, 1),
                        system(saturation, Double.MAX_VALUE),
                        new CapacitySearch.Listener() {})
                .run();

        assertThat(result.status()).isEqualTo(CapacityResult.Status.FOUND);
        assertThat(result.capacity()).get().satisfies(c -> assertThat(c).isLessThanOrEqualTo(truth));
        assertThat(result.smallestFailing()).isGreaterThan(truth);
        assertThat(result.smallestFailing() - result.largestPassing()).isLessThanOrEqualTo(50);
        assertThat(result.points())
                .hasSizeLessThanOrEqualTo(settings(250, 16_000, 50, 1, 1).maxPoints());
    }

    @Test
    void growsExponentiallyThenBisects() {
        List<Double> tried = new ArrayList<>();
        LoadEvaluator inner = system(1_000, Double.MAX_VALUE);
        new CapacitySearch(
                        settings(100, 10_000, 100, 1, 1),
                        (point, rate, rep) -> {
                            tried.add(rate);
                            return inner.measure(point, rate, rep);
                        },
                        new CapacitySearch.Listener() {})
                .run();

        // 100, 200, 400, 800 pass, 1,600 fails; then [800, 1,600] is halved to within 100: 1,200, 1,000, 900
        assertThat(tried).containsExactly(100.0, 200.0, 400.0, 800.0, 1_600.0, 1_200.0, 1_000.0, 900.0);
    }

    @Test
    void theLagRuleBindsWhereTheP99WouldStillPass() {
        // p99 alone would pass up to 1,800 requests/s; the consumer falls behind above 1,000
        CapacityResult result = new CapacitySearch(
                        settings(250, 4_000, 20, 1, 1), system(2_000, 1_000), new CapacitySearch.Listener() {})
                .run();

        // 1000 * (r - 1000) / r <= 5 up to r = 1,005
        assertThat(result.capacity()).get().satisfies(c -> assertThat(c).isBetween(985.0, 1_005.0));
    }

    @Test
    void theEndsOfTheRangeAreReported() {
        CapacityResult none = new CapacitySearch(
                        settings(1_000, 4_000, 100, 1, 1),
                        system(500, Double.MAX_VALUE),
                        new CapacitySearch.Listener() {})
                .run();
        CapacityResult all = new CapacitySearch(
                        settings(100, 1_000, 100, 1, 1),
                        system(50_000, Double.MAX_VALUE),
                        new CapacitySearch.Listener() {})
                .run();

        assertThat(none.status()).isEqualTo(CapacityResult.Status.NONE_PASSES);
        assertThat(none.capacity()).isEmpty();
        assertThat(none.points()).hasSize(1);
        assertThat(all.status()).isEqualTo(CapacityResult.Status.UPPER_BOUND_PASSES);
        assertThat(all.capacity()).contains(1_000.0);
    }

    @Test
    void aRateWhoseRunsDisagreeIsRunMoreAndFails() {
        // at 800 requests/s every other run misses the target; everything below passes, above fails
        int[] runsAt800 = {0};
        LoadEvaluator noisy = (point, rate, rep) -> {
            boolean miss = rate > 800 || (rate == 800 && runsAt800[0]++ % 2 == 1);
            return answers(0, miss ? 80 : 20, 0, new LagTrend(0, 15));
        };
        CapacityResult result =
                new CapacitySearch(settings(100, 1_600, 100, 3, 5), noisy, new CapacitySearch.Listener() {}).run();

        LoadPoint at800 = result.at(800.0).orElseThrow();
        assertThat(at800.runs()).hasSize(5);
        assertThat(at800.verdict()).isEqualTo(Verdict.NOISY_FAIL);
        assertThat(result.capacity()).get().satisfies(c -> assertThat(c).isLessThan(800.0));
        assertThat(result.at(400.0).orElseThrow().runs()).hasSize(3);
    }

    @Test
    void aRunThatCannotBeMeasuredStopsTheSearch() {
        CapacityResult result = new CapacitySearch(
                        settings(100, 1_600, 100, 1, 1),
                        (point, rate, rep) -> {
                            if (rate > 300) {
                                throw new IllegalStateException("broker did not start");
                            }
                            return answers(0, 10, 0, new LagTrend(0, 15));
                        },
                        new CapacitySearch.Listener() {})
                .run();

        assertThat(result.status()).isEqualTo(CapacityResult.Status.STOPPED);
        assertThat(result.failure()).contains("400 requests/s").contains("broker did not start");
        assertThat(result.largestPassing()).isEqualTo(200.0);
        assertThat(result.capacity()).isEmpty();
    }

    @Test
    void aRunThatLosesRequestsOrExitsNonZeroMissesTheSlo() {
        LagTrend flat = new LagTrend(0, 15);
        assertThat(SLO.misses(answers(0, 10, 0, flat))).isEmpty();
        assertThat(SLO.misses(answers(0, 10, 3, flat))).containsExactly("requests -> answers: 3 requests unanswered");
        assertThat(SLO.misses(answers(1, 10, 0, flat))).containsExactly("exit code 1");
        assertThat(SLO.misses(answers(0, 60, 0, flat))).containsExactly("requests -> answers: p99 60.00 > 50 ms");
        assertThat(SLO.misses(answers(0, 10, 0, new LagTrend(Double.NaN, 2))))
                .containsExactly("requests -> answers: lag trend unknown (2 windows)");
    }

    @Test
    void everyJudgedStreamMustMeetTheSloEachNamedInItsMisses() {
        LagTrend flat = new LagTrend(0, 15);
        LoadRun run = new LoadRun(
                0,
                List.of(
                        new StreamRun(Workload.Stream.PREDICTIONS, 70, 4_000, 2, new LagTrend(9, 15)),
                        new StreamRun(Workload.Stream.ROUTES, 10, 500, 0, flat)),
                null);

        assertThat(SLO.misses(run))
                .containsExactly(
                        "readings -> predictions: 2 readings without a prediction",
                        "readings -> predictions: p99 70.00 > 50 ms",
                        "readings -> predictions: lag slope 9.00 > 5 ms/s");
        assertThat(SLO.misses(new LoadRun(
                        0,
                        List.of(
                                new StreamRun(Workload.Stream.PREDICTIONS, 10, 4_000, 0, flat),
                                new StreamRun(Workload.Stream.ROUTES, 51, 500, 0, flat)),
                        null)))
                .containsExactly("requests -> answers: p99 51.00 > 50 ms");
    }

    @Test
    void onTheDetectorsAxisEveryLoadTriedIsAWholeNumberOfDetectors() {
        List<Double> tried = new ArrayList<>();
        LoadEvaluator inner = district(7_777, Double.MAX_VALUE);
        CapacityResult result = new CapacitySearch(
                        detectors(1_000, 16_000, 50),
                        (point, load, rep) -> {
                            tried.add(load);
                            return inner.measure(point, load, rep);
                        },
                        new CapacitySearch.Listener() {})
                .run();

        // the predictions' p99 reaches 50 ms at 0.9 x 7,777 = 6,999.3 detectors
        assertThat(result.status()).isEqualTo(CapacityResult.Status.FOUND);
        assertThat(tried).allSatisfy(d -> assertThat(d).isEqualTo(Math.rint(d)));
        assertThat(tried).startsWith(1_000.0, 2_000.0, 4_000.0, 8_000.0);
        assertThat(result.capacity()).get().satisfies(c -> assertThat(c).isBetween(6_950.0, 6_999.0));
        assertThat(result.smallestFailing() - result.largestPassing()).isLessThanOrEqualTo(50);
    }

    @Test
    void onTheDetectorsAxisTheAnswersBindWhereThePredictionsWouldStillPass() {
        CapacityResult result = new CapacitySearch(
                        detectors(500, 16_000, 100), district(20_000, 3_000), new CapacitySearch.Listener() {})
                .run();

        assertThat(result.capacity()).get().satisfies(c -> assertThat(c).isBetween(2_900.0, 2_999.0));
        assertThat(result.at(result.smallestFailing())
                        .orElseThrow()
                        .runs()
                        .get(0)
                        .metSlo())
                .isFalse();
    }

    @Test
    void aDetectorsRangeMustBeWhole() {
        assertThatThrownBy(() -> detectors(1_000.5, 4_000, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> detectors(1_000, 4_000, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReportHoldsEveryRunTheAnswerAndThePlot(@TempDir Path out) throws Exception {
        CapacityPlan plan =
                CapacityPlanTest.plan(new CapacityPlan.Request(null, 250.0, 4_000.0, 100.0, 2, 2, 50.0, 5.0));
        CapacityResult result = new CapacitySearch(
                        plan.settings(), system(2_000, Double.MAX_VALUE), new CapacitySearch.Listener() {})
                .run();

        String answer = CapacityReport.write(out, plan, result);

        assertThat(answer)
                .startsWith("capacity: " + com(result.largestPassing()) + " requests/s (")
                .contains("its 2 runs: readings -> predictions p99 ")
                .contains("requests -> answers p99 ");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN)))
                .startsWith("# Capacity: route requests per second within the SLO")
                .contains(answer)
                .contains("| point | requests/s | runs | met | readings -> predictions p99 ms, each run "
                        + "| readings -> predictions lag slope ms/s, each run | requests -> answers p99 ms, each run "
                        + "| requests -> answers lag slope ms/s, each run | verdict |");
        List<String> csv = Files.readAllLines(out.resolve(CapacityReport.CSV));
        assertThat(csv.get(0))
                .isEqualTo(CapacityReport.csvHeader(CapacityAxis.REQUESTS))
                .startsWith("point,requests_per_s,repetition,stream,");
        // a row per run and stream: 2 runs a point, 2 streams a run
        assertThat(csv).hasSize(1 + 2 * 2 * result.points().size());
        assertThat(out.resolve(CapacityReport.PLOT + ".png")).isNotEmptyFile();
    }

    @Test
    void theDetectorsReportNamesItsAxisAndHasARowPerRunAndStream(@TempDir Path out) throws Exception {
        CapacityPlan plan = CapacityPlan.of(
                CapacityPlanTest.district(),
                new CapacityPlan.Request("detectors", 500.0, 8_000.0, 100.0, 1, 1, 50.0, 5.0));
        CapacityResult result =
                new CapacitySearch(plan.settings(), district(20_000, 3_000), new CapacitySearch.Listener() {}).run();

        String answer = CapacityReport.write(out, plan, result);

        assertThat(answer)
                .startsWith("capacity: " + com(result.largestPassing()) + " detectors (")
                .contains("readings -> predictions p99 ")
                .contains("requests -> answers p99 ");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN)))
                .startsWith("# Capacity: detectors of the district within the SLO")
                .contains("| point | detectors | runs | met | readings -> predictions p99 ms, each run ")
                .contains("requests -> answers: p99 90.00 > 50 ms");
        List<String> csv = Files.readAllLines(out.resolve(CapacityReport.CSV));
        assertThat(csv.get(0)).startsWith("point,detectors,repetition,stream,");
        assertThat(csv).hasSize(1 + 2 * result.points().size());
        assertThat(csv.get(1)).startsWith("1,500,1,predictions,0,");
        assertThat(csv.get(2)).startsWith("1,500,1,routes,0,");
        assertThat(out.resolve(CapacityReport.PLOT + ".png")).isNotEmptyFile();
    }

    private static String com(double rate) {
        return CapacitySlo.number(rate);
    }

    @Test
    void theBoundOnPointsCoversEveryShapeOfSearch() {
        for (double saturation = 120; saturation < 20_000; saturation *= 1.37) {
            CapacitySearch.Settings s = settings(100, 12_000, 30, 1, 1);
            int points = new CapacitySearch(s, system(saturation, Double.MAX_VALUE), new CapacitySearch.Listener() {})
                    .run()
                    .points()
                    .size();
            assertThat(points).as("saturation %s", saturation).isLessThanOrEqualTo(s.maxPoints());
        }
    }

    @Test
    void theBoundOnPointsCoversEveryShapeOfSearchOverWholeDetectors() {
        for (double saturation = 120; saturation < 40_000; saturation *= 1.37) {
            CapacitySearch.Settings s = detectors(100, 12_345, 3);
            int points = new CapacitySearch(s, district(saturation, Double.MAX_VALUE), new CapacitySearch.Listener() {})
                    .run()
                    .points()
                    .size();
            assertThat(points).as("saturation %s", saturation).isLessThanOrEqualTo(s.maxPoints());
        }
    }
}
