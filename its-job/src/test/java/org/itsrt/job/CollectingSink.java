package org.itsrt.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that keeps what it is given in this JVM, under a name, for a test on the MiniCluster to
 * read once the job has finished (or while it runs). Every subtask adds to the same queue.
 */
final class CollectingSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, Queue<Object>> COLLECTED = new ConcurrentHashMap<>();

    private final String name;

    /** A sink collecting under {@code name}; what an earlier sink of that name collected is dropped. */
    CollectingSink(String name) {
        this.name = name;
        COLLECTED.put(name, new ConcurrentLinkedQueue<>());
    }

    /** What the sink of this name has collected so far, in the order it arrived. */
    @SuppressWarnings("unchecked")
    static <T> List<T> collected(String name) {
        Queue<Object> queue = COLLECTED.get(name);
        if (queue == null) {
            throw new IllegalArgumentException("no sink collects under " + name);
        }
        return new ArrayList<>((Queue<T>) (Queue<?>) queue);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        Queue<Object> queue = COLLECTED.get(name);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) {
                queue.add(element);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
