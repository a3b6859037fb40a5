package org.itsrt.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;

/**
 * The job's ends without a broker: the readings are a list of record values, read once in order
 * (a bounded source, so the job finishes when they are processed), and the advice and dead letters
 * are collected in this JVM ({@link CollectingSink}) under the run's name.
 */
final class MemoryJobIO implements JobIO {

    /** The topic the in-memory readings claim to come from, as dead letters report it. */
    static final String TOPIC = "memory.readings";

    private final String run;
    private final ArrayList<byte[]> values;

    /** @param values the input records' values in order; null for a record without one */
    MemoryJobIO(String run, List<byte[]> values) {
        this.run = run;
        this.values = new ArrayList<>(values);
    }

    /**
     * Record {@code i} of the list comes from partition 0 at offset {@code i}. At parallelism n the
     * source reads the list as n contiguous ranges at once (Flink's number-sequence splits), unlike
     * a Kafka partition, which one reader reads in order: a test at parallelism > 1 keeps each
     * detector's records within one range, or its later records can overtake its earlier ones.
     */
    @Override
    public Source<RawReading, ?, ?> readings() {
        ArrayList<byte[]> input = values;
        return new DataGeneratorSource<>(
                index -> new RawReading(TOPIC, 0, index, input.get(index.intValue())),
                input.size(),
                TypeInformation.of(RawReading.class));
    }

    @Override
    public Sink<RoutedAdvice> advice() {
        return new CollectingSink<>(run + "/advice");
    }

    @Override
    public Sink<DeadLetter> deadLetters() {
        return new CollectingSink<>(run + "/dead-letters");
    }

    @Override
    public String describe(End end) {
        return "memory: " + end.name().toLowerCase(Locale.ROOT);
    }

    List<RoutedAdvice> collectedAdvice() {
        return CollectingSink.collected(run + "/advice");
    }

    List<DeadLetter> collectedDeadLetters() {
        return CollectingSink.collected(run + "/dead-letters");
    }
}
