package org.itsrt.job.config;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.apache.flink.util.ParameterTool;
import org.itsrt.graph.Detector;
import org.itsrt.graph.DetectorGraph;
import org.itsrt.graph.MetaGraphBuilder;
import org.itsrt.graph.StudyNetwork;
import org.itsrt.predict.Engine;
import org.itsrt.predict.ModelBundle;
import org.itsrt.predict.ModelBundleException;
import org.itsrt.predict.PredictorOptions;
import org.itsrt.records.ReadingRecord;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;

/**
 * What one run of the job is told: where Kafka is, which topics, which model and engine, which
 * route to advise, and the knobs that trade latency for throughput or guarantees. Parsed from
 * {@code --name value} arguments with Flink's {@link ParameterTool} and validated as a whole
 * before anything starts: a missing model, a bad topic name, a detector that is not in the graph
 * or a number out of range fails with one {@link JobSettingsException} naming the option (and
 * the file). Defaults and why they were chosen: docs/job.md.
 *
 * <p>Immutable and {@link Serializable}: the job's functions carry it to the TaskManagers. Paths
 * are kept as strings because {@link Path} is not serializable; they are resolved again where
 * the function opens, so the model and a graph file must exist at the same path on every
 * TaskManager.
 */
public final class JobSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Where Kafka offsets start when the consumer group has none to resume from. */
    public enum StartingOffsets {
        /** Only records produced after the job started: what a latency measurement wants. */
        LATEST,
        /** Everything the topic still holds: replays and tests. */
        EARLIEST
    }

    public static final String DEFAULT_INPUT_TOPIC = org.itsrt.records.Topics.READINGS;
    public static final String DEFAULT_OUTPUT_TOPIC = org.itsrt.records.Topics.ADVICE;
    public static final String DEFAULT_DEAD_LETTER_TOPIC = org.itsrt.records.Topics.DEAD_LETTERS;
    public static final String DEFAULT_GROUP_ID = "its-job";
    public static final String DEFAULT_MODEL = "models/lstm-flow";
    public static final long DEFAULT_ORIGIN = 764598;      // El Segundo
    public static final long DEFAULT_DESTINATION = 774445; // Long Beach
    public static final long DEFAULT_BUFFER_TIMEOUT_MS = 0;
    public static final long DEFAULT_EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS = 1_000;
    public static final int DEFAULT_MAX_BATCH = 1;
    public static final long DEFAULT_MAX_BATCH_WAIT_US = 1_000;
    /** Model calls on a made-up window when a subtask opens, so the JIT has compiled the
     * predictor before the first record arrives (about half a second with the kernel). */
    public static final int DEFAULT_WARMUP_CALLS = 2_000;
    public static final String DEFAULT_TRANSACTIONAL_ID_PREFIX = "its-job";
    /** Model label of advice written by the identity step. */
    public static final String IDENTITY_MODEL = "identity";

    /** Arguments that start with these are handed to the Kafka consumer or producer as they are. */
    public static final String CONSUMER_PREFIX = "consumer.";
    public static final String PRODUCER_PREFIX = "producer.";

    static final String BOOTSTRAP_SERVERS = "bootstrap-servers";
    static final String INPUT_TOPIC = "input-topic";
    static final String OUTPUT_TOPIC = "output-topic";
    static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    static final String GROUP_ID = "group-id";
    static final String STARTING_OFFSETS = "starting-offsets";
    static final String MODEL = "model";
    static final String ENGINE = "engine";
    static final String TF_INTRA = "tf-intra-op-threads";
    static final String TF_INTER = "tf-inter-op-threads";
    static final String ORIGIN = "origin";
    static final String DESTINATION = "destination";
    static final String GRAPH_META = "graph-meta";
    static final String PARALLELISM = "parallelism";
    static final String BUFFER_TIMEOUT = "buffer-timeout-ms";
    static final String EXACTLY_ONCE = "exactly-once";
    static final String CHECKPOINT_INTERVAL = "checkpoint-interval-ms";
    static final String TRANSACTIONAL_ID_PREFIX = "transactional-id-prefix";
    static final String IDENTITY = "identity";
    static final String MAX_BATCH = "max-batch";
    static final String MAX_BATCH_WAIT = "max-batch-wait-us";
    static final String WARMUP_CALLS = "warmup-calls";
    static final String HELP = "help";

    private static final List<String> OPTIONS = List.of(BOOTSTRAP_SERVERS, INPUT_TOPIC, OUTPUT_TOPIC,
            DEAD_LETTER_TOPIC, GROUP_ID, STARTING_OFFSETS, MODEL, ENGINE, TF_INTRA, TF_INTER, ORIGIN, DESTINATION,
            GRAPH_META, PARALLELISM, BUFFER_TIMEOUT, EXACTLY_ONCE, CHECKPOINT_INTERVAL, TRANSACTIONAL_ID_PREFIX,
            IDENTITY, MAX_BATCH, MAX_BATCH_WAIT, WARMUP_CALLS, HELP);

    /** ParameterTool's value for an option given without one ({@code --identity}). */
    private static final String NO_VALUE = "__NO_VALUE_KEY";
    /** Kafka's own rule for topic names (Topic.validate): legal characters, at most 249 of them. */
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Pattern HOST_PORT = Pattern.compile("[^\\s:,]+:(\\d{1,5})");
    private static final Pattern ID_TEXT = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

    private final String bootstrapServers;
    private final String inputTopic;
    private final String outputTopic;
    private final String deadLetterTopic;
    private final String groupId;
    private final StartingOffsets startingOffsets;
    private final String model;
    private final Engine engine;
    private final int tfIntraOpThreads;
    private final int tfInterOpThreads;
    private final long origin;
    private final long destination;
    private final String graphMeta;
    private final int parallelism;
    private final long bufferTimeoutMs;
    private final boolean exactlyOnce;
    private final long checkpointIntervalMs;
    private final String transactionalIdPrefix;
    private final boolean identity;
    private final int maxBatch;
    private final long maxBatchWaitUs;
    private final int warmupCalls;
    private final TreeMap<String, String> consumerProperties;
    private final TreeMap<String, String> producerProperties;

    // Derived while validating, so that the TaskManagers need not read the files again for them.
    private final String modelLabel;
    private final long[] detectorIds;

    private JobSettings(Parsed p) {
        this.bootstrapServers = p.bootstrapServers;
        this.inputTopic = p.inputTopic;
        this.outputTopic = p.outputTopic;
        this.deadLetterTopic = p.deadLetterTopic;
        this.groupId = p.groupId;
        this.startingOffsets = p.startingOffsets;
        this.model = p.model;
        this.engine = p.engine;
        this.tfIntraOpThreads = p.tfIntraOpThreads;
        this.tfInterOpThreads = p.tfInterOpThreads;
        this.origin = p.origin;
        this.destination = p.destination;
        this.graphMeta = p.graphMeta;
        this.parallelism = p.parallelism;
        this.bufferTimeoutMs = p.bufferTimeoutMs;
        this.exactlyOnce = p.exactlyOnce;
        this.checkpointIntervalMs = p.checkpointIntervalMs;
        this.transactionalIdPrefix = p.transactionalIdPrefix;
        this.identity = p.identity;
        this.maxBatch = p.maxBatch;
        this.maxBatchWaitUs = p.maxBatchWaitUs;
        this.warmupCalls = p.warmupCalls;
        this.consumerProperties = new TreeMap<>(p.consumerProperties);
        this.producerProperties = new TreeMap<>(p.producerProperties);
        this.modelLabel = p.modelLabel;
        this.detectorIds = p.detectorIds;
    }

    /**
     * Parses and validates the job's arguments.
     *
     * @throws JobSettingsException naming the option (and the file) that cannot be used
     */
    public static JobSettings fromArgs(String... args) {
        ParameterTool params;
        try {
            params = ParameterTool.fromArgs(args);
        } catch (IllegalArgumentException e) {
            throw new JobSettingsException(null, "cannot read the command line: " + e.getMessage()
                    + " (options are --name value; see --help)", e);
        }
        return fromMap(params.toMap());
    }

    /** As {@link #fromArgs}, from option names (without {@code --}) and values. */
    public static JobSettings fromMap(Map<String, String> options) {
        return new JobSettings(new Parsed(options));
    }

    /** True when the arguments ask for the usage text instead of a run. */
    public static boolean isHelp(String... args) {
        return Arrays.asList(args).contains("--" + HELP) || Arrays.asList(args).contains("-h");
    }

    /** The options, their defaults and what they do. */
    public static String usage() {
        return String.join("\n",
                "usage: flink run its-job-flink-job.jar --bootstrap-servers HOST:PORT [options]",
                "",
                "  --bootstrap-servers HOST:PORT[,...]  Kafka brokers (required)",
                "  --input-topic NAME          readings to process (default " + DEFAULT_INPUT_TOPIC + ")",
                "  --output-topic NAME         advice records (default " + DEFAULT_OUTPUT_TOPIC + ")",
                "  --dead-letter-topic NAME    records that fail validation (default " + DEFAULT_DEAD_LETTER_TOPIC + ")",
                "  --group-id ID               Kafka consumer group (default " + DEFAULT_GROUP_ID + ")",
                "  --starting-offsets latest|earliest  where to start reading (default latest)",
                "  --model DIR                 model bundle (default " + DEFAULT_MODEL + ")",
                "  --engine NAME               " + Engine.validNames() + " (default " + Engine.DEFAULT + ")",
                "  --tf-intra-op-threads N     TensorFlow threads inside an op, 0 = all cores (default 1)",
                "  --tf-inter-op-threads N     TensorFlow ops side by side, 0 = all cores (default 1)",
                "  --origin VDS                origin of the advised route (default " + DEFAULT_ORIGIN + ", El Segundo)",
                "  --destination VDS           its destination (default " + DEFAULT_DESTINATION + ", Long Beach)",
                "  --graph-meta FILE           PeMS station metadata file to route over (default: the six study stations)",
                "  --parallelism N             parallelism of every operator (default: the environment's)",
                "  --buffer-timeout-ms MS      network buffer flush timeout, 0 = every record, -1 = only when full (default 0)",
                "  --exactly-once              transactional output, committed on each checkpoint (default off: at least once)",
                "  --checkpoint-interval-ms MS checkpoint interval, 0 = none (default 0; " + DEFAULT_EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS
                        + " with --exactly-once)",
                "  --transactional-id-prefix P Kafka transactional id prefix for --exactly-once (default "
                        + DEFAULT_TRANSACTIONAL_ID_PREFIX + ")",
                "  --identity                  skip prediction and routing: advice with the last flow and an empty route",
                "  --max-batch N               predict up to N readings in one model call (default 1)",
                "  --max-batch-wait-us US      longest a reading waits for a batch to fill (default " + DEFAULT_MAX_BATCH_WAIT_US + ")",
                "  --warmup-calls N            model calls on a made-up window when a subtask opens, 0 = none (default "
                        + DEFAULT_WARMUP_CALLS + ")",
                "  --consumer.KEY VALUE        a Kafka consumer property, e.g. --consumer.fetch.max.wait.ms 10",
                "  --producer.KEY VALUE        a Kafka producer property, e.g. --producer.acks 1",
                "");
    }

    // ---- accessors ------------------------------------------------------------------------

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String inputTopic() {
        return inputTopic;
    }

    public String outputTopic() {
        return outputTopic;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    public String groupId() {
        return groupId;
    }

    public StartingOffsets startingOffsets() {
        return startingOffsets;
    }

    public Path model() {
        return Path.of(model);
    }

    public Engine engine() {
        return engine;
    }

    public int tfIntraOpThreads() {
        return tfIntraOpThreads;
    }

    public int tfInterOpThreads() {
        return tfInterOpThreads;
    }

    /** The options a predictor of this run is opened with. */
    public PredictorOptions predictorOptions() {
        return PredictorOptions.defaults().withEngine(engine).withTensorFlowThreads(tfIntraOpThreads, tfInterOpThreads);
    }

    public long origin() {
        return origin;
    }

    public long destination() {
        return destination;
    }

    /** The PeMS metadata file of the graph; null for the study network. */
    public Path graphMeta() {
        return graphMeta == null ? null : Path.of(graphMeta);
    }

    /** The operators' parallelism; 0 = the environment's default. */
    public int parallelism() {
        return parallelism;
    }

    public long bufferTimeoutMs() {
        return bufferTimeoutMs;
    }

    public boolean exactlyOnce() {
        return exactlyOnce;
    }

    /** 0 = no checkpoints. */
    public long checkpointIntervalMs() {
        return checkpointIntervalMs;
    }

    public String transactionalIdPrefix() {
        return transactionalIdPrefix;
    }

    public boolean identity() {
        return identity;
    }

    public int maxBatch() {
        return maxBatch;
    }

    public long maxBatchWaitUs() {
        return maxBatchWaitUs;
    }

    public int warmupCalls() {
        return warmupCalls;
    }

    /** Extra consumer properties given as {@code --consumer.KEY VALUE}. */
    public Map<String, String> consumerProperties() {
        return Collections.unmodifiableMap(consumerProperties);
    }

    /** Extra producer properties given as {@code --producer.KEY VALUE}. */
    public Map<String, String> producerProperties() {
        return Collections.unmodifiableMap(producerProperties);
    }

    /** What advice records carry in {@code model}: bundle name and engine, e.g. {@code lstm-flow/kernel}. */
    public String modelLabel() {
        return modelLabel;
    }

    /** VDS ids of the graph's detectors, sorted: readings of any other detector are rejected. */
    public long[] detectorIds() {
        return detectorIds.clone();
    }

    /** Whether the graph has this detector. */
    public boolean hasDetector(long vdsId) {
        return Arrays.binarySearch(detectorIds, vdsId) >= 0;
    }

    /**
     * Builds the routing graph: the study network, or the graph of {@link #graphMeta()}.
     *
     * @throws JobSettingsException naming {@code --graph-meta} and the file when it cannot be read
     */
    public DetectorGraph graph() {
        return loadGraph(graphMeta);
    }

    /** One line per setting, for run reports. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        asMap().forEach((key, value) -> text.append(key).append(": ").append(value).append('\n'));
        return text.toString();
    }

    /** The settings in option order, defaults included. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(BOOTSTRAP_SERVERS, bootstrapServers);
        map.put(INPUT_TOPIC, inputTopic);
        map.put(OUTPUT_TOPIC, outputTopic);
        map.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        map.put(GROUP_ID, groupId);
        map.put(STARTING_OFFSETS, startingOffsets.name().toLowerCase(Locale.ROOT));
        map.put(IDENTITY, String.valueOf(identity));
        map.put(MODEL, identity ? model + " (unused)" : model);
        map.put(ENGINE, identity ? "none" : engine.engineName());
        map.put("model-label", modelLabel);
        map.put(TF_INTRA, String.valueOf(tfIntraOpThreads));
        map.put(TF_INTER, String.valueOf(tfInterOpThreads));
        map.put(ORIGIN, String.valueOf(origin));
        map.put(DESTINATION, String.valueOf(destination));
        map.put(GRAPH_META, graphMeta == null ? "(study network)" : graphMeta);
        map.put("detectors", String.valueOf(detectorIds.length));
        map.put(PARALLELISM, parallelism == 0 ? "(environment default)" : String.valueOf(parallelism));
        map.put(BUFFER_TIMEOUT, String.valueOf(bufferTimeoutMs));
        map.put(EXACTLY_ONCE, String.valueOf(exactlyOnce));
        map.put(CHECKPOINT_INTERVAL, checkpointIntervalMs == 0 ? "0 (off)" : String.valueOf(checkpointIntervalMs));
        if (exactlyOnce) {
            map.put(TRANSACTIONAL_ID_PREFIX, transactionalIdPrefix);
        }
        map.put(MAX_BATCH, String.valueOf(maxBatch));
        map.put(MAX_BATCH_WAIT, String.valueOf(maxBatchWaitUs));
        map.put(WARMUP_CALLS, String.valueOf(warmupCalls));
        consumerProperties.forEach((k, v) -> map.put(CONSUMER_PREFIX + k, v));
        producerProperties.forEach((k, v) -> map.put(PRODUCER_PREFIX + k, v));
        return map;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("JobSettings[");
        asMap().forEach((key, value) -> text.append(key).append('=').append(value).append(", "));
        text.setLength(text.length() - 2);
        return text.append(']').toString();
    }

    // ---- parsing and validation -------------------------------------------------------------

    private static DetectorGraph loadGraph(String graphMeta) {
        if (graphMeta == null) {
            return StudyNetwork.build();
        }
        Path file = Path.of(graphMeta);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new JobSettingsException("--" + GRAPH_META, file.toAbsolutePath() + " is not a readable file");
        }
        DetectorGraph graph;
        try {
            graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(file);
        } catch (IOException | RuntimeException e) {
            throw new JobSettingsException("--" + GRAPH_META, file.toAbsolutePath()
                    + ": not a usable PeMS station metadata file: " + e.getMessage(), e);
        }
        if (graph.detectors().isEmpty()) {
            throw new JobSettingsException("--" + GRAPH_META, file.toAbsolutePath()
                    + ": no mainline station with coordinates, postmile and lanes; nothing to route over");
        }
        return graph;
    }

    /** The parsing state: reads every option once, in an order where later checks may use earlier values. */
    private static final class Parsed {
        private final Map<String, String> options;
        String bootstrapServers;
        String inputTopic;
        String outputTopic;
        String deadLetterTopic;
        String groupId;
        StartingOffsets startingOffsets;
        String model;
        Engine engine;
        int tfIntraOpThreads;
        int tfInterOpThreads;
        long origin;
        long destination;
        String graphMeta;
        int parallelism;
        long bufferTimeoutMs;
        boolean exactlyOnce;
        long checkpointIntervalMs;
        String transactionalIdPrefix;
        boolean identity;
        int maxBatch;
        long maxBatchWaitUs;
        int warmupCalls;
        final Map<String, String> consumerProperties = new TreeMap<>();
        final Map<String, String> producerProperties = new TreeMap<>();
        String modelLabel;
        long[] detectorIds;

        Parsed(Map<String, String> options) {
            this.options = options;
            rejectUnknown();
            bootstrapServers = bootstrapServers();
            inputTopic = topic(INPUT_TOPIC, DEFAULT_INPUT_TOPIC);
            outputTopic = topic(OUTPUT_TOPIC, DEFAULT_OUTPUT_TOPIC);
            deadLetterTopic = topic(DEAD_LETTER_TOPIC, DEFAULT_DEAD_LETTER_TOPIC);
            requireDistinctTopics();
            groupId = idText(GROUP_ID, DEFAULT_GROUP_ID);
            startingOffsets = startingOffsets();
            identity = flag(IDENTITY);
            engine = engine();
            tfIntraOpThreads = (int) number(TF_INTRA, 1, 0, 256);
            tfInterOpThreads = (int) number(TF_INTER, 1, 0, 256);
            model = text(MODEL, DEFAULT_MODEL);
            modelLabel = identity ? IDENTITY_MODEL : checkModel();
            graphMeta = options.containsKey(GRAPH_META) ? text(GRAPH_META, null) : null;
            origin = number(ORIGIN, DEFAULT_ORIGIN, 1, Long.MAX_VALUE);
            destination = number(DESTINATION, DEFAULT_DESTINATION, 1, Long.MAX_VALUE);
            detectorIds = checkGraph();
            parallelism = (int) number(PARALLELISM, 0, 1, 4096);
            bufferTimeoutMs = number(BUFFER_TIMEOUT, DEFAULT_BUFFER_TIMEOUT_MS, -1, 60_000);
            exactlyOnce = flag(EXACTLY_ONCE);
            checkpointIntervalMs = checkpointInterval();
            transactionalIdPrefix = idText(TRANSACTIONAL_ID_PREFIX, DEFAULT_TRANSACTIONAL_ID_PREFIX);
            maxBatch = (int) number(MAX_BATCH, DEFAULT_MAX_BATCH, 1, 4096);
            maxBatchWaitUs = number(MAX_BATCH_WAIT, DEFAULT_MAX_BATCH_WAIT_US, 0, 10_000_000);
            warmupCalls = (int) number(WARMUP_CALLS, DEFAULT_WARMUP_CALLS, 0, 1_000_000);
        }

        private void rejectUnknown() {
            Set<String> known = new HashSet<>(OPTIONS);
            List<String> unknown = new ArrayList<>();
            for (Map.Entry<String, String> option : options.entrySet()) {
                String key = option.getKey();
                if (key.startsWith(CONSUMER_PREFIX) && key.length() > CONSUMER_PREFIX.length()) {
                    consumerProperties.put(key.substring(CONSUMER_PREFIX.length()), kafkaValue(key, option.getValue()));
                } else if (key.startsWith(PRODUCER_PREFIX) && key.length() > PRODUCER_PREFIX.length()) {
                    producerProperties.put(key.substring(PRODUCER_PREFIX.length()), kafkaValue(key, option.getValue()));
                } else if (!known.contains(key)) {
                    unknown.add("--" + key);
                }
            }
            if (!unknown.isEmpty()) {
                Collections.sort(unknown);
                throw new JobSettingsException(unknown.get(0), "unknown option" + (unknown.size() > 1
                        ? " (also unknown: " + String.join(", ", unknown.subList(1, unknown.size())) + ")" : "")
                        + "; see --help");
            }
        }

        private String kafkaValue(String key, String value) {
            if (value == null || NO_VALUE.equals(value)) {
                throw new JobSettingsException("--" + key, "needs a value");
            }
            return value;
        }

        private String text(String key, String defaultValue) {
            String value = options.get(key);
            if (value == null) {
                return defaultValue;
            }
            if (NO_VALUE.equals(value) || value.isBlank()) {
                throw new JobSettingsException("--" + key, "needs a value");
            }
            return value.trim();
        }

        private boolean flag(String key) {
            String value = options.get(key);
            if (value == null) {
                return false;
            }
            if (NO_VALUE.equals(value) || value.equalsIgnoreCase("true")) {
                return true;
            }
            if (value.equalsIgnoreCase("false")) {
                return false;
            }
            throw new JobSettingsException("--" + key, "is a switch: give it alone, or with true or false, not '"
                    + value + "'");
        }

        private long number(String key, long defaultValue, long min, long max) {
            String value = text(key, null);
            if (value == null) {
                return defaultValue;
            }
            long parsed;
            try {
                parsed = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new JobSettingsException("--" + key, "not a whole number: '" + value + "'");
            }
            if (parsed < min || parsed > max) {
                throw new JobSettingsException("--" + key, parsed + " is out of range "
                        + min + ".." + (max == Long.MAX_VALUE ? "" : String.valueOf(max)));
            }
            return parsed;
        }

        private String bootstrapServers() {
            String value = text(BOOTSTRAP_SERVERS, null);
            if (value == null) {
                throw new JobSettingsException("--" + BOOTSTRAP_SERVERS, "required: the Kafka brokers as HOST:PORT[,HOST:PORT...]");
            }
            for (String server : value.split(",")) {
                var matcher = HOST_PORT.matcher(server.trim());
                if (!matcher.matches() || Integer.parseInt(matcher.group(1)) < 1
                        || Integer.parseInt(matcher.group(1)) > 65_535) {
                    throw new JobSettingsException("--" + BOOTSTRAP_SERVERS, "'" + server.trim()
                            + "' is not HOST:PORT with a port in 1..65535");
                }
            }
            return value;
        }

        private String topic(String key, String defaultValue) {
            String name = text(key, defaultValue);
            if (!TOPIC_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
                throw new JobSettingsException("--" + key, "'" + name + "' is not a legal Kafka topic name "
                        + "(1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'; not '.' or '..')");
            }
            return name;
        }

        private void requireDistinctTopics() {
            if (inputTopic.equals(outputTopic) || inputTopic.equals(deadLetterTopic)) {
                throw new JobSettingsException("--" + (inputTopic.equals(outputTopic) ? OUTPUT_TOPIC : DEAD_LETTER_TOPIC),
                        "'" + inputTopic + "' is also the input topic; the job would read its own output");
            }
            if (outputTopic.equals(deadLetterTopic)) {
                throw new JobSettingsException("--" + DEAD_LETTER_TOPIC, "'" + deadLetterTopic
                        + "' is also the output topic; dead letters and advice must stay apart");
            }
        }

        private String idText(String key, String defaultValue) {
            String value = text(key, defaultValue);
            if (!ID_TEXT.matcher(value).matches()) {
                throw new JobSettingsException("--" + key, "'" + value + "' must be 1 to 200 of a-z, A-Z, 0-9, '.', '_', '-'");
            }
            return value;
        }

        private StartingOffsets startingOffsets() {
            String value = text(STARTING_OFFSETS, "latest");
            try {
                return StartingOffsets.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new JobSettingsException("--" + STARTING_OFFSETS, "'" + value + "' is neither latest nor earliest");
            }
        }

        private Engine engine() {
            String value = text(ENGINE, null);
            if (value == null) {
                return PredictorOptions.defaults().engine();
            }
            try {
                return Engine.fromName(value);
            } catch (IllegalArgumentException e) {
                throw new JobSettingsException("--" + ENGINE, e.getMessage());
            }
        }

        private String checkModel() {
            Path dir = Path.of(model);
            ModelBundle bundle;
            try {
                bundle = ModelBundle.load(dir);
                if (engine != Engine.LINEAR) {
                    bundle.savedModel();
                }
            } catch (ModelBundleException e) {
                // Its message starts with the file at fault.
                throw new JobSettingsException("--" + MODEL, e.getMessage(), e);
            }
            if (bundle.model().window() != ReadingRecord.WINDOW) {
                throw new JobSettingsException("--" + MODEL, dir.resolve(ModelBundle.MODEL_JSON).toAbsolutePath()
                        + ": window " + bundle.model().window() + ", but every reading record carries "
                        + ReadingRecord.WINDOW + " readings");
            }
            return bundle.model().name() + "/" + engine.engineName();
        }

        private long[] checkGraph() {
            DetectorGraph graph = loadGraph(graphMeta);
            String where = graphMeta == null ? "the study network" : "the graph of " + Path.of(graphMeta).toAbsolutePath();
            if (!graph.contains(origin)) {
                throw new JobSettingsException("--" + ORIGIN, "detector " + origin + " is not in " + where);
            }
            if (!graph.contains(destination)) {
                throw new JobSettingsException("--" + DESTINATION, "detector " + destination + " is not in " + where);
            }
            // Costs are always finite, so whether a route exists depends on the graph alone: check
            // once here instead of writing an unreachable (infinite-cost) route on every record.
            Route route = Router.withDefaults(graph).route(origin, destination);
            if (!route.isReachable()) {
                throw new JobSettingsException("--" + DESTINATION, "detector " + destination
                        + " cannot be reached from --origin " + origin + " in " + where);
            }
            return graph.detectors().stream().mapToLong(Detector::vdsId).sorted().toArray();
        }

        private long checkpointInterval() {
            boolean given = options.containsKey(CHECKPOINT_INTERVAL);
            long interval = number(CHECKPOINT_INTERVAL,
                    exactlyOnce ? DEFAULT_EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS : 0, 0, 86_400_000);
            if (given && interval != 0 && interval < 10) {
                throw new JobSettingsException("--" + CHECKPOINT_INTERVAL, interval
                        + " is below Flink's minimum of 10 ms (0 = no checkpoints)");
            }
            if (exactlyOnce && interval == 0) {
                throw new JobSettingsException("--" + CHECKPOINT_INTERVAL, "--exactly-once commits output on "
                        + "checkpoints and needs an interval of at least 10 ms");
            }
            return interval;
        }
    }
}
