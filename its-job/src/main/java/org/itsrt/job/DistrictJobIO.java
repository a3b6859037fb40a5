package org.itsrt.job;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.itsrt.job.JobIO.End;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RouteAnswer;

/**
 * Where the district workload ({@link DistrictPipeline}) reads its readings and route requests and
 * writes its predictions, routes and dead letters: Kafka topics ({@link org.itsrt.job.kafka.KafkaJobIO})
 * or collections in a test's JVM, as {@link JobIO} for the study.
 */
public interface DistrictJobIO {

    /** The readings as they came, bytes untouched, with where they came from. */
    Source<RawReading, ?, ?> readings();

    /** The route requests as they came, bytes untouched, with where they came from. */
    Source<RawReading, ?, ?> routeRequests();

    /** One prediction per valid reading. */
    Sink<PredictedFlow> predictions();

    /** One answer per valid route request. */
    Sink<RouteAnswer> routes();

    /** The readings and requests that failed validation, with the reason. */
    Sink<DeadLetter> deadLetters();

    /** What the job graph calls an end, e.g. {@code kafka: its.routes}. */
    String describe(End end);
}
