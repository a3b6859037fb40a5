package org.itsrt.records;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a run sends, what the job computes from it and what the probe measures, as the streams
 * each workload has (docs/pipeline.md, "Workloads"). The producers, the job, the probe, the plan
 * and the broker's topics all read the workload from here, so that a stream is declared once.
 */
public enum Workload {
    /** The study's detectors: each reading is advised with the route of one fixed query. */
    STUDY(Stream.ADVICE),
    /**
     * A district's detectors: each reading's prediction updates the routing state, and routes
     * answer travellers' requests; the two streams are measured apart.
     */
    DISTRICT(Stream.PREDICTIONS, Stream.ROUTES);

    /** One measured stream of a workload: the records that go in and the records each comes out as. */
    public enum Stream {
        /** Reading -> advice with the route of the study's query ({@link AdviceRecord}). */
        ADVICE("advice", "readings -> advice", Topics.READINGS, Topics.ADVICE, "detector"),
        /**
         * Reading -> its predicted flow ({@link PredictionRecord}): latency from the reading's
         * stamps to the prediction's arrival, loss and duplicates by {@code seq} per detector.
         */
        PREDICTIONS("predictions", "readings -> predictions", Topics.READINGS, Topics.PREDICTIONS, "detector"),
        /**
         * Route request -> its answer ({@link RouteRecord}): latency from the request's stamps to
         * the answer's arrival, loss and duplicates by {@code seq} per request stream.
         */
        ROUTES("routes", "requests -> answers", Topics.ROUTE_REQUESTS, Topics.ROUTES, "request stream");

        private final String label;
        private final String measures;
        private final String inputTopic;
        private final String outputTopic;
        private final String countedPer;

        Stream(String label, String measures, String inputTopic, String outputTopic, String countedPer) {
            this.label = label;
            this.measures = measures;
            this.inputTopic = inputTopic;
            this.outputTopic = outputTopic;
            this.countedPer = countedPer;
        }

        /** The stream's name in reports, progress lines and run folders, e.g. {@code routes}. */
        public String label() {
            return label;
        }

        /** What it measures, from what to what, e.g. {@code requests -> answers}. */
        public String measures() {
            return measures;
        }

        /** The topic its records are sent to and the job reads, by default. */
        public String inputTopic() {
            return inputTopic;
        }

        /** The topic the job writes its answers to and the probe measures, by default. */
        public String outputTopic() {
            return outputTopic;
        }

        /** What a record's {@code seq} counts per, so loss and duplicates are told: a detector or a request stream. */
        public String countedPer() {
            return countedPer;
        }
    }

    private final List<Stream> streams;

    Workload(Stream... streams) {
        this.streams = List.of(streams);
    }

    /** The streams measured, in the order reports list them. */
    public List<Stream> streams() {
        return streams;
    }

    /**
     * The workload's topics in dataflow order, as a broker for a run of it creates them: each
     * stream's input (once) and output, then the dead letters of every input.
     */
    public List<String> topics() {
        List<String> topics = new ArrayList<>();
        for (Stream stream : streams) {
            if (!topics.contains(stream.inputTopic())) {
                topics.add(stream.inputTopic());
            }
            topics.add(stream.outputTopic());
        }
        topics.add(Topics.DEAD_LETTERS);
        return List.copyOf(topics);
    }

    /** The name in a plan file and on the command line ({@code --workload}), e.g. {@code district}. */
    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every name, for messages: {@code study, district}. */
    public static String names() {
        return Arrays.stream(values()).map(Workload::option).collect(Collectors.joining(", "));
    }

    /**
     * The workload of a name.
     *
     * @throws IllegalArgumentException naming the names there are
     */
    public static Workload of(String name) {
        return Arrays.stream(values())
                .filter(w -> w.option().equals(name))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("unknown workload '" + name + "', expected one of " + names()));
    }
}
