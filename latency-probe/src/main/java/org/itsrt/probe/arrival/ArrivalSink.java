package org.itsrt.probe.arrival;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Where the consume loop hands what it receives: statistics, the CSV, the histogram log, progress. */
public interface ArrivalSink {

    /** A record parsed and stamped. */
    void arrived(Arrival arrival);

    /** A record that could not be measured. */
    default void malformed(MalformedRecord record) {}

    /**
     * Called after every poll, with or without records, with the clock's time then: lets sinks
     * close time windows and print progress while the topic is quiet.
     */
    default void tick(long nowNs) {}

    /** The run is over; flush what is buffered. */
    default void finish() throws IOException {}

    /**
     * {@code sink} for the measured records only: warm-up records ({@link Arrival#warmup()}) are
     * not handed to it. For the raw files and plots of latencies, which hold measured records only.
     */
    static ArrivalSink measuredOnly(ArrivalSink sink) {
        return new ArrivalSink() {
            @Override
            public void arrived(Arrival arrival) {
                if (!arrival.warmup()) {
                    sink.arrived(arrival);
                }
            }

            @Override
            public void malformed(MalformedRecord record) {
                sink.malformed(record);
            }

            @Override
            public void tick(long nowNs) {
                sink.tick(nowNs);
            }

            @Override
            public void finish() throws IOException {
                sink.finish();
            }
        };
    }

    /** All of {@code sinks}, in order. */
    static ArrivalSink all(List<? extends ArrivalSink> sinks) {
        List<ArrivalSink> copy = List.copyOf(sinks);
        return new ArrivalSink() {
            @Override
            public void arrived(Arrival arrival) {
                for (ArrivalSink sink : copy) {
                    sink.arrived(arrival);
                }
            }

            @Override
            public void malformed(MalformedRecord record) {
                for (ArrivalSink sink : copy) {
                    sink.malformed(record);
                }
            }

            @Override
            public void tick(long nowNs) {
                for (ArrivalSink sink : copy) {
                    sink.tick(nowNs);
                }
            }

            @Override
            public void finish() throws IOException {
                IOException first = null;
                for (ArrivalSink sink : copy) {
                    try {
                        sink.finish();
                    } catch (IOException | UncheckedIOException e) {
                        IOException io =
                                e instanceof IOException checked ? checked : ((UncheckedIOException) e).getCause();
                        if (first == null) {
                            first = io;
                        } else {
                            first.addSuppressed(io);
                        }
                    }
                }
                if (first != null) {
                    throw first;
                }
            }
        };
    }
}
