package org.itsrt.job;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * An exactly-once Kafka sink that loses one transaction on purpose: the first committable that
 * still has the writer's live producer is aborted instead of committed and reported as done, so
 * Flink goes on as if its records were on the topic. Everything else goes to the wrapped sink's
 * own writer and committer. It exists to show that the exactly-once check of the Kafka tests
 * notices a lost transaction ({@link CommittedOutput#assertEachReadingExactlyOnce}).
 */
final class AbortOneCommitSink<T>
        implements Sink<T>, SupportsCommitter<KafkaCommittable>, SupportsWriterState<T, KafkaWriterState> {

    /** Set once a transaction was aborted; a static because the sink runs in a copy deserialized by Flink. */
    static final AtomicBoolean ABORTED = new AtomicBoolean();

    private final TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable> kafkaSink;

    @SuppressWarnings("unchecked")
    AbortOneCommitSink(Sink<T> exactlyOnceKafkaSink) {
        this.kafkaSink = (TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable>) exactlyOnceKafkaSink;
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return kafkaSink.createWriter(context);
    }

    @Override
    public StatefulSinkWriter<T, KafkaWriterState> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return kafkaSink.restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return kafkaSink.getWriterStateSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return kafkaSink.getCommittableSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        Committer<KafkaCommittable> committer = kafkaSink.createCommitter(context);
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<KafkaCommittable>> requests)
                    throws IOException, InterruptedException {
                List<CommitRequest<KafkaCommittable>> rest = new ArrayList<>();
                for (CommitRequest<KafkaCommittable> request : requests) {
                    FlinkKafkaInternalProducer<?, ?> producer =
                            request.getCommittable().getProducer().orElse(null);
                    if (producer != null && ABORTED.compareAndSet(false, true)) {
                        // The writer's own producer knows the transaction protocol the broker
                        // agreed to, so its abort ends the transaction as a real abort would.
                        producer.abortTransaction();
                        request.signalAlreadyCommitted();
                    } else {
                        rest.add(request);
                    }
                }
                committer.commit(rest);
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }
}
