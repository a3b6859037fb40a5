package org.itsrt.job;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;

/**
 * Where the job reads its readings and writes its advice and dead letters. {@link ItsJob#build}
 * takes it as an argument, so that the pipeline between the ends is the same whether they are
 * Kafka topics ({@link org.itsrt.job.kafka.KafkaJobIO}, what {@code ItsJob.main} runs) or
 * collections in the test's JVM. The district workload's ends are {@link DistrictJobIO}.
 */
public interface JobIO {

    /** The ends of both workloads, for naming them in the job graph. */
    enum End {
        READINGS,
        ADVICE,
        DEAD_LETTERS,
        /** {@link DistrictJobIO} only. */
        PREDICTIONS,
        /** {@link DistrictJobIO} only. */
        ROUTE_REQUESTS,
        /** {@link DistrictJobIO} only. */
        ROUTES
    }

    /** The input records as they came, bytes untouched, with where they came from. */
    Source<RawReading, ?, ?> readings();

    /** One advice per valid reading. */
    Sink<RoutedAdvice> advice();

    /** The records that failed validation, with the reason. */
    Sink<DeadLetter> deadLetters();

    /** What the job graph calls an end, e.g. {@code kafka: its.advice}. */
    String describe(End end);
}
