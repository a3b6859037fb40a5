package org.itsrt.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.itsrt.job.JobIO.End;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RouteAnswer;

/**
 * The district workload's ends without a broker, as {@link MemoryJobIO} for the study: readings and
 * route requests are bounded lists of record values, the outputs are collected in this JVM under
 * the run's name.
 *
 * <p>The requests from index {@code holdFrom} on are held back until the predictions sink has
 * collected {@code predictionsFirst} predictions, so that a run answers requests both before and
 * after the network state has filled, whatever the two sources' pace.
 */
final class MemoryDistrictIO implements DistrictJobIO {

    /** The topics the in-memory records claim to come from, as dead letters report them. */
    static final String READINGS_TOPIC = "memory.readings";

    static final String REQUESTS_TOPIC = "memory.route-requests";

    private static final Duration HOLD_AT_MOST = Duration.ofSeconds(120);

    private final String run;
    private final ArrayList<byte[]> readings;
    private final ArrayList<byte[]> requests;
    private final int holdFrom;
    private final int predictionsFirst;

    MemoryDistrictIO(String run, List<byte[]> readings, List<byte[]> requests, int holdFrom, int predictionsFirst) {
        this.run = run;
        this.readings = new ArrayList<>(readings);
        this.requests = new ArrayList<>(requests);
        this.holdFrom = holdFrom;
        this.predictionsFirst = predictionsFirst;
    }

    /** As {@link MemoryJobIO#readings}: at parallelism n, n contiguous ranges read at once. */
    @Override
    public Source<RawReading, ?, ?> readings() {
        ArrayList<byte[]> input = readings;
        return new DataGeneratorSource<>(
                index -> new RawReading(READINGS_TOPIC, 0, index, input.get(index.intValue())),
                input.size(),
                TypeInformation.of(RawReading.class));
    }

    @Override
    public Source<RawReading, ?, ?> routeRequests() {
        ArrayList<byte[]> input = requests;
        int from = holdFrom;
        int needed = predictionsFirst;
        String predictions = run + "/predictions";
        return new DataGeneratorSource<>(
                index -> {
                    if (index >= from) {
                        awaitPredictions(predictions, needed);
                    }
                    return new RawReading(REQUESTS_TOPIC, 0, index, input.get(index.intValue()));
                },
                input.size(),
                TypeInformation.of(RawReading.class));
    }

    private static void awaitPredictions(String sink, int count) throws InterruptedException {
        long deadline = System.nanoTime() + HOLD_AT_MOST.toNanos();
        while (CollectingSink.collected(sink).size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + HOLD_AT_MOST + " for " + count + " predictions");
            }
            Thread.sleep(10);
        }
    }

    @Override
    public Sink<PredictedFlow> predictions() {
        return new CollectingSink<>(run + "/predictions");
    }

    @Override
    public Sink<RouteAnswer> routes() {
        return new CollectingSink<>(run + "/routes");
    }

    @Override
    public Sink<DeadLetter> deadLetters() {
        return new CollectingSink<>(run + "/dead-letters");
    }

    @Override
    public String describe(End end) {
        return "memory: " + end.name().toLowerCase(Locale.ROOT);
    }

    List<PredictedFlow> collectedPredictions() {
        return CollectingSink.collected(run + "/predictions");
    }

    List<RouteAnswer> collectedRoutes() {
        return CollectingSink.collected(run + "/routes");
    }

    List<DeadLetter> collectedDeadLetters() {
        return CollectingSink.collected(run + "/dead-letters");
    }
}
