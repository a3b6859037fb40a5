package org.itsrt.job.config;

import static org.itsrt.job.config.JobOption.Group.DELIVERY;
import static org.itsrt.job.config.JobOption.Group.KAFKA;
import static org.itsrt.job.config.JobOption.Group.MODEL;
import static org.itsrt.job.config.JobOption.Group.ROUTING;
import static org.itsrt.job.config.JobOption.Group.RUNTIME;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.itsrt.job.config.KafkaSettings.StartingOffsets;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.model.Engine;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;

/**
 * Every option of the job, each declared once: name, group, value and its checks, default, help
 * line and the reason for the default. The groups read their values from here
 * ({@link KafkaSettings#from} and the others), and {@link #usage()}, {@link JobSettings#asMap()}
 * and the options table of docs/job.md ({@link #markdownTable()}, checked by a test) are written
 * from here.
 */
public final class JobOptions {

    /** Filled by {@link JobOption.Builder#build} while the constants below are initialised, in their order. */
    private static final List<JobOption<?>> ALL = new ArrayList<>();

    private static final Pattern HOST_PORT = Pattern.compile("[^\\s:,]+:(\\d{1,5})");

    // ---- Kafka ends ---------------------------------------------------------------------------

    public static final JobOption<String> BOOTSTRAP_SERVERS = JobOption.of(
                    "bootstrap-servers", KAFKA, "HOST:PORT[,...]", JobOptions::hostPorts)
            .required("the Kafka brokers as HOST:PORT[,HOST:PORT...]")
            .help("Kafka brokers")
            .why("no Kafka is a safe guess")
            .shown(s -> s.kafka().bootstrapServers())
            .build();

    public static final JobOption<String> INPUT_TOPIC = JobOption.topic("input-topic", Topics.READINGS)
            .help("readings to process")
            .why("docs/design.md, D2; must differ from both outputs")
            .shown(s -> s.kafka().inputTopic())
            .build();

    public static final JobOption<String> OUTPUT_TOPIC = JobOption.topic("output-topic", Topics.ADVICE)
            .help("advice records")
            .why("docs/design.md, D2")
            .shown(s -> s.kafka().outputTopic())
            .build();

    public static final JobOption<String> DEAD_LETTER_TOPIC = JobOption.topic("dead-letter-topic", Topics.DEAD_LETTERS)
            .help("records that fail validation")
            .why("docs/design.md, D2")
            .shown(s -> s.kafka().deadLetterTopic())
            .build();

    public static final JobOption<String> PREDICTIONS_TOPIC = JobOption.topic("predictions-topic", Topics.PREDICTIONS)
            .help("predictions, one per valid reading (--workload district)")
            .why("docs/records.md; `--workload district` only")
            .onlyFor(Workload.DISTRICT)
            .shown(s -> s.kafka().districtTopics().predictions())
            .build();

    public static final JobOption<String> REQUESTS_TOPIC = JobOption.topic("requests-topic", Topics.ROUTE_REQUESTS)
            .help("route requests to answer (--workload district)")
            .why("docs/records.md; `--workload district` only")
            .onlyFor(Workload.DISTRICT)
            .shown(s -> s.kafka().districtTopics().requests())
            .build();

    public static final JobOption<String> ROUTES_TOPIC = JobOption.topic("routes-topic", Topics.ROUTES)
            .help("one answer per valid route request (--workload district)")
            .why("docs/records.md; `--workload district` only")
            .onlyFor(Workload.DISTRICT)
            .shown(s -> s.kafka().districtTopics().routes())
            .build();

    public static final JobOption<String> GROUP_ID = JobOption.id("group-id", KAFKA, "ID", "its-job")
            .help("Kafka consumer group")
            .why("the consumer group; offsets are committed to it on checkpoints only")
            .shown(s -> s.kafka().groupId())
            .build();

    public static final JobOption<StartingOffsets> STARTING_OFFSETS = JobOption.choice(
                    "starting-offsets", KAFKA, StartingOffsets.class, "is neither latest nor earliest")
            .valueLabel("latest|earliest")
            .defaultsTo(StartingOffsets.LATEST)
            .defaultText("`latest`")
            .help("where to start reading")
            .why("a latency run measures records sent while the job runs, not a backlog; `earliest` replays what "
                    + "the topic holds (tests). A restore from a checkpoint or savepoint resumes at its own offsets "
                    + "either way")
            .shown(s -> s.kafka().startingOffsets().name().toLowerCase(Locale.ROOT))
            .build();

    public static final JobOption<Map<String, String>> CONSUMER_PROPERTIES = JobOption.properties("consumer.", KAFKA)
            .help("a Kafka consumer property, e.g. --consumer.fetch.max.wait.ms 10")
            .why("any Kafka consumer property, over the defaults of section 6")
            .shownAfter((s, map) -> s.kafka().consumerProperties().forEach((k, v) -> map.put("consumer." + k, v)))
            .build();

    public static final JobOption<Map<String, String>> PRODUCER_PROPERTIES = JobOption.properties("producer.", KAFKA)
            .help("a Kafka producer property, e.g. --producer.acks 1")
            .why("any Kafka producer property, over the defaults of section 6")
            .shownAfter((s, map) -> s.kafka().producerProperties().forEach((k, v) -> map.put("producer." + k, v)))
            .build();

    public static final JobOption<KafkaClientConfig> KAFKA_CONFIG = JobOption.of(
                    "kafka-config", KAFKA, "FILE", JobOptions::kafkaClientConfig)
            .defaultsTo(KafkaClientConfig.none())
            .defaultText("none: plaintext, no authentication")
            .help("Kafka client properties for the source, the sinks and their admin clients")
            .why("security.protocol, sasl.*, ssl.* of a secured cluster ([security.md](security.md)); read where the "
                    + "job's main runs and carried in the source and sinks, so the job's arguments hold only the "
                    + "path and no password reaches the web UI or the global job parameters")
            .shown(s -> s.kafka().clientConfig().source().map(Object::toString).orElse(null))
            .build();

    // ---- workload -----------------------------------------------------------------------------

    public static final JobOption<Workload> WORKLOAD = JobOption.choice(
                    "workload", JobOption.Group.WORKLOAD, Workload.class, "is neither study nor district")
            .valueLabel("study|district")
            .defaultsTo(Workload.STUDY)
            .defaultText("`study`")
            .help("what the job computes: advice per reading, or predictions per reading and routes per request")
            .why("`study`: every reading is advised with the route of `--origin` to `--destination` (sections 1, "
                    + "2); `district`: every reading's prediction goes to `--predictions-topic` and updates the "
                    + "routing state, and routes answer travellers' requests (section 8)")
            .shown(s -> s.workload().name().toLowerCase(Locale.ROOT))
            .build();

    // ---- model and engine ---------------------------------------------------------------------

    public static final JobOption<Boolean> IDENTITY = JobOption.toggle("identity", MODEL)
            .help("skip prediction and routing: advice with the last flow and an empty route")
            .why("replaces predict and route by `IdentityAdvice`: advice with `predicted_flow` = the last flow, "
                    + "`route` `[]`, `route_cost_s` 0, `model` `identity`. A valid advice record, so the same probe "
                    + "measures the stack's floor (Kafka, Flink, parse, serialize) in the same set-up")
            .shown(s -> String.valueOf(s.model().identity()))
            .build();

    public static final JobOption<String> MODEL_DIR = JobOption.text("model", MODEL, "DIR")
            .defaultsTo("models/lstm-flow")
            .help("model bundle")
            .why(
                    "the shipped bundle; checked where the job is built and shipped with the job to every TaskManager (section 5)")
            .shown(s -> s.model().identity()
                    ? s.model().dir() + " (unused)"
                    : s.model().dir())
            .build();

    public static final JobOption<Engine> ENGINE = JobOption.of(
                    "engine",
                    MODEL,
                    Arrays.stream(Engine.values()).map(Engine::engineName).collect(Collectors.joining("|")),
                    JobOptions::engine)
            .defaultsTo(Engine.DEFAULT)
            .help("the model's engine")
            .why("`Engine.DEFAULT`, the default engine: the fastest at the job's pace within the accuracy bound, the "
                    + "only one within 0.3 ms of the floor at p50 ([results.md](results.md), the tail with its "
                    + "spread); `kernel` is the exact float32 reference")
            .shown(s -> s.model().identity() ? "none" : s.model().engine().engineName())
            .shownAfter((s, map) -> map.put("model-label", s.model().label()))
            .build();

    public static final JobOption<Long> TF_INTRA_OP_THREADS = JobOption.number(
                    "tf-intra-op-threads", MODEL, "N", 0, 256)
            .defaultsTo(1L)
            .help("TensorFlow threads inside an op, 0 = all cores")
            .why("one thread per predictor was faster on the 2-core machine and keeps a subtask on its core; "
                    + "0 = TensorFlow's choice")
            .shown(s -> String.valueOf(s.model().predictorOptions().tensorFlowIntraOpThreads()))
            .build();

    public static final JobOption<Long> TF_INTER_OP_THREADS = JobOption.number(
                    "tf-inter-op-threads", MODEL, "N", 0, 256)
            .defaultsTo(1L)
            .help("TensorFlow ops side by side, 0 = all cores")
            .why("as `--tf-intra-op-threads`")
            .shown(s -> String.valueOf(s.model().predictorOptions().tensorFlowInterOpThreads()))
            .build();

    public static final JobOption<Long> ONNX_INTRA_OP_THREADS = JobOption.number(
                    "onnx-intra-op-threads", MODEL, "N", 1, 256)
            .defaultsTo(1L)
            .help("ONNX Runtime threads inside an operator, the calling one included")
            .why(
                    "1: the subtask's own thread runs the graph, so ONNX Runtime starts no thread of its own and "
                            + "the predictor keeps to the subtask's core; its threads never spin ([inference.md](inference.md), \"ONNX Runtime\")")
            .shown(s -> String.valueOf(s.model().predictorOptions().onnxIntraOpThreads()))
            .build();

    public static final JobOption<Long> WARMUP_CALLS = JobOption.number("warmup-calls", MODEL, "N", 0, 1_000_000)
            .defaultsTo(2_000L)
            .help("model calls on a made-up window when a subtask opens, 0 = none")
            .why("model calls on made-up windows when a subtask opens: the first ~1,000 calls of the JVM kernel "
                    + "run before the JIT has compiled it (the very first took up to a second), a cost that would "
                    + "otherwise land on the first records of a run; about half a second at start")
            .shown(s -> String.valueOf(s.model().warmupCalls()))
            .build();

    // ---- routing ------------------------------------------------------------------------------

    public static final JobOption<Long> ORIGIN = JobOption.number("origin", ROUTING, "VDS", 1, Long.MAX_VALUE)
            .defaultsTo(764_598L)
            .defaultText("764598 (El Segundo)")
            .help("origin of the advised route")
            .why("the study's fixed query; `--workload study` only")
            .onlyFor(Workload.STUDY)
            .shown(s -> String.valueOf(s.routing().origin()))
            .build();

    public static final JobOption<Long> DESTINATION = JobOption.number("destination", ROUTING, "VDS", 1, Long.MAX_VALUE)
            .defaultsTo(774_445L)
            .defaultText("774445 (Long Beach)")
            .help("its destination")
            .why("the study's fixed query; `--workload study` only")
            .onlyFor(Workload.STUDY)
            .shown(s -> String.valueOf(s.routing().destination()))
            .build();

    public static final JobOption<String> GRAPH_META = JobOption.text("graph-meta", ROUTING, "FILE")
            .defaultText("none: the six study stations")
            .help("PeMS station metadata file to route over")
            .why("a PeMS `dNN_text_meta_*.txt` file routes over a whole district (`MetaGraphBuilder`); readings of "
                    + "detectors outside the graph are dead-lettered, and so are route requests between stations "
                    + "outside it")
            .shown(s -> s.routing().graphMeta() == null
                    ? "(study network)"
                    : s.routing().graphMeta())
            .shownAfter(
                    (s, map) -> map.put("detectors", String.valueOf(s.routing().detectorIds().length)))
            .build();

    // ---- latency and runtime ------------------------------------------------------------------

    public static final JobOption<Long> PARALLELISM = JobOption.number("parallelism", RUNTIME, "N", 1, 4096)
            .defaultsTo(0L)
            .defaultText("the environment's")
            .help("parallelism of every operator")
            .why("set it to the input topic's partition count; more subtasks than partitions sit idle")
            .shown(s -> s.runtime().parallelism() == 0
                    ? "(environment default)"
                    : String.valueOf(s.runtime().parallelism()))
            .build();

    public static final JobOption<Long> BUFFER_TIMEOUT_MS = JobOption.number(
                    "buffer-timeout-ms", RUNTIME, "MS", -1, 60_000)
            .defaultsTo(0L)
            .help("network buffer flush timeout, 0 = every record, -1 = only when full")
            .why("flush every record to the next task at once. With Flink's default of 100 ms, the exchange in "
                    + "front of the route step held records: p50 102 ms instead of 2 ms (docs/design.md, \"Floors "
                    + "and targets\"). -1 flushes only full buffers (throughput)")
            .shown(s -> String.valueOf(s.runtime().bufferTimeoutMs()))
            .build();

    public static final JobOption<Long> MAX_BATCH = JobOption.number("max-batch", RUNTIME, "N", 1, 4096)
            .defaultsTo(1L)
            .help("predict up to N readings in one model call")
            .why("the latency case: one model call per record")
            .shown(s -> String.valueOf(s.runtime().maxBatch()))
            .build();

    public static final JobOption<Long> MAX_BATCH_WAIT_US = JobOption.number(
                    "max-batch-wait-us", RUNTIME, "US", 0, 10_000_000)
            .defaultsTo(1_000L)
            .help("longest a reading waits for a batch to fill")
            .why("with `--max-batch` > 1, the longest a reading waits for its batch to fill (section 4)")
            .shown(s -> String.valueOf(s.runtime().maxBatchWaitUs()))
            .build();

    public static final JobOption<Long> DEADLINE_MS = JobOption.number("deadline-ms", RUNTIME, "MS", 0, 3_600_000)
            .defaultsTo(50L)
            .help("a record's deadline after its Kafka timestamp; 0 = none")
            .why(
                    "the study's SLO. The job measures each record's slack against it on the wall clock (docs/deadlines.md): "
                            + "a route request already past it is answered at once as `expired`, and with `--degrade` a reading "
                            + "the LSTM would make late is predicted by the linear engine. 0 turns deadlines off")
            .shown(s -> String.valueOf(s.runtime().deadlineMs()))
            .build();

    public static final JobOption<Boolean> DEGRADE = JobOption.toggle("degrade", RUNTIME)
            .help("predict with the linear engine a reading whose slack is below the LSTM's recent p99")
            .why("off by default, so the study's run is the study's: every reading gets the LSTM. On, each "
                    + "prediction says whether it was degraded (docs/deadlines.md)")
            .shown(s -> String.valueOf(s.runtime().degrade()))
            .build();

    // ---- delivery -----------------------------------------------------------------------------

    public static final JobOption<Boolean> EXACTLY_ONCE = JobOption.toggle("exactly-once", DELIVERY)
            .help("transactional output, committed on each checkpoint; without it, at least once")
            .why("section 6")
            .shown(s -> String.valueOf(s.delivery().exactlyOnce()))
            .build();

    /** The checkpoint interval when {@code --exactly-once} is given without one. */
    public static final long EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS = 1_000;

    public static final JobOption<Long> CHECKPOINT_INTERVAL_MS = JobOption.number(
                    "checkpoint-interval-ms", DELIVERY, "MS", 0, 86_400_000)
            .defaultsTo(0L)
            .defaultText("0 (no checkpoints); " + EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS + " with `--exactly-once`")
            .help("checkpoint interval, 0 = none")
            .why("a checkpoint makes the at-least-once sink wait for the broker's acknowledgements of everything in "
                    + "flight, a stall on the latency path; exactly-once needs checkpoints to commit")
            .shown(s -> s.delivery().checkpointIntervalMs() == 0
                    ? "0 (off)"
                    : String.valueOf(s.delivery().checkpointIntervalMs()))
            .build();

    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX = JobOption.id(
                    "transactional-id-prefix", DELIVERY, "P", "its-job")
            .help("Kafka transactional id prefix for --exactly-once")
            .why("exactly-once only; each sink appends `-advice` / `-dead-letters` (district: `-predictions` / "
                    + "`-routes` / `-dead-letters`). Give every job on one cluster its own")
            .shown(s -> s.delivery().exactlyOnce() ? s.delivery().transactionalIdPrefix() : null)
            .build();

    /** Asks for {@link #usage()} instead of a run; not a setting. */
    static final String HELP = "help";

    private JobOptions() {}

    private static KafkaClientConfig kafkaClientConfig(String option, String path) {
        try {
            return KafkaClientConfig.load(java.nio.file.Path.of(path));
        } catch (IllegalArgumentException e) {
            throw new JobSettingsException(option, e.getMessage());
        }
    }

    static void register(JobOption<?> option) {
        ALL.add(option);
    }

    /** Every option, in the order of its group, then of its declaration. */
    public static List<JobOption<?>> all() {
        return Arrays.stream(JobOption.Group.values())
                .flatMap(group -> inGroup(group).stream())
                .toList();
    }

    /**
     * One option's value read as the job reads it (its type, range and file checks), for a plan
     * that holds job options before any job is built: a {@code Long} for a number, a {@code
     * Boolean} for a switch, else the option's own value type.
     *
     * @param name  the option without {@code --}, e.g. {@code deadline-ms} or {@code consumer.fetch.max.wait.ms}
     * @throws JobSettingsException naming {@code --name}: unknown, or its value refused
     */
    public static Object read(String name, String value) {
        JobOption<?> option = ALL.stream()
                .filter(o -> o.matches(name))
                .findFirst()
                .orElseThrow(() -> new JobSettingsException("--" + name, UNKNOWN));
        if (value == null) {
            throw new JobSettingsException("--" + name, "needs a value");
        }
        Object read = option.read(Collections.singletonMap(name, value));
        return option.isPrefix() ? ((Map<?, ?>) read).values().iterator().next() : read;
    }

    /** Whether the job has an option {@code name} (without {@code --}). */
    public static boolean has(String name) {
        return ALL.stream().anyMatch(option -> option.matches(name));
    }

    private static final String UNKNOWN = "not an option of the job (docs/job.md, section 3 lists them)";

    /** Fails naming the first unknown option (and the others), so that a typo is not silently ignored. */
    static void rejectUnknown(Map<String, String> options) {
        List<String> unknown = new ArrayList<>();
        for (String key : options.keySet()) {
            if (!key.equals(HELP) && ALL.stream().noneMatch(option -> option.matches(key))) {
                unknown.add("--" + key);
            }
        }
        if (!unknown.isEmpty()) {
            Collections.sort(unknown);
            throw new JobSettingsException(
                    unknown.get(0),
                    "unknown option"
                            + (unknown.size() > 1
                                    ? " (also unknown: " + String.join(", ", unknown.subList(1, unknown.size())) + ")"
                                    : "")
                            + "; see --help");
        }
    }

    /** The {@code --help} text: every option with its default, by group. */
    static String usage() {
        StringBuilder text =
                new StringBuilder("usage: flink run its-job-flink-job.jar --bootstrap-servers HOST:PORT [options]\n");
        for (JobOption.Group group : JobOption.Group.values()) {
            text.append('\n').append(group.title()).append(":\n");
            for (JobOption<?> option : inGroup(group)) {
                String help = option.help();
                if (!option.isPrefix()) {
                    String defaultText = option.defaultText().replace("`", "");
                    help += defaultText.equals("required") ? " (required)" : " (default " + defaultText + ")";
                }
                text.append(String.format("  %-36s %s%n", option.synopsis(), help));
            }
        }
        return text.toString();
    }

    /** The options table of docs/job.md, section 3. */
    public static String markdownTable() {
        StringBuilder table = new StringBuilder("| option | default | why |\n|---|---|---|\n");
        for (JobOption.Group group : JobOption.Group.values()) {
            table.append("| **").append(group.title()).append("** | | |\n");
            for (JobOption<?> option : inGroup(group)) {
                table.append("| `")
                        .append(option.synopsis().replace("|", "\\|"))
                        .append("` | ")
                        .append(option.defaultText())
                        .append(" | ")
                        .append(option.why())
                        .append(" |\n");
            }
        }
        return table.toString();
    }

    private static List<JobOption<?>> inGroup(JobOption.Group group) {
        return ALL.stream().filter(option -> option.group() == group).toList();
    }

    private static String hostPorts(String option, String value) {
        for (String server : value.split(",")) {
            var matcher = HOST_PORT.matcher(server.trim());
            if (!matcher.matches()
                    || Integer.parseInt(matcher.group(1)) < 1
                    || Integer.parseInt(matcher.group(1)) > 65_535) {
                throw new JobSettingsException(
                        option, "'" + server.trim() + "' is not HOST:PORT with a port in 1..65535");
            }
        }
        return value;
    }

    private static Engine engine(String option, String value) {
        try {
            return Engine.fromName(value);
        } catch (IllegalArgumentException e) {
            throw new JobSettingsException(option, e.getMessage());
        }
    }
}
