package org.itsrt.experiments.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.itsrt.cli.Durations;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;

/**
 * One experiment file (docs/design.md, D5): a base run plan and its rows, each row the same plan
 * with some of its fields replaced (in the same schema as {@code ./its demo --print-plan}), run in
 * rounds of repetitions and judged against one SLO. Read with {@link #read(Path)}, which checks
 * every field and names the file, the field and its line of the first thing wrong in each part.
 *
 * <pre>
 * name: linux-budgets
 * plan:                      # the base plan of every row
 *   stack: {flink: {mode: child}}
 *   load: {records: 6000, warmup_records: 1800}
 *   budget: {backend: linux-cgroup, vcpus: 2}
 * rows:                      # a label and the fields a row replaces
 *   - budget: {budget_us: 76750, period_us: 100000}
 * </pre>
 *
 * @param name         a short name, used for the results folder
 * @param description  what the experiment asks, in words
 * @param rows         the configurations to compare, in order, each a whole run plan
 * @param repetitions  runs per row (fresh broker and cluster each)
 * @param slo          what a row must meet
 * @param interference optional background load beside the job
 * @param study        where the study's raw latency files are, to overlay them ("auto":
 *                     {@code $ITS_STUDY_DATA/study-latencies} when that variable names a folder)
 * @param accuracyReference the label of the row whose runs the LSTM served alone (a row without
 *                     {@code --degrade}): each other run's predictions are held against that row's
 *                     run of the same repetition (docs/deadlines.md, section 5); null for none
 */
public record ExperimentSpec(
        String name,
        String description,
        List<Row> rows,
        int repetitions,
        Slo slo,
        Interference interference,
        String study,
        String accuracyReference) {

    public ExperimentSpec {
        rows = List.copyOf(rows);
        if (rows.isEmpty()) {
            throw new SpecException("an experiment needs at least one row");
        }
    }

    /**
     * One configuration: a label and the whole plan of its runs.
     *
     * @param label row name in reports, e.g. {@code 76750/100000}
     * @param plan  the base plan with the row's fields over it
     */
    public record Row(String label, RunPlan plan) {

        /** The same row with its plan changed, e.g. by a command line's options. */
        public Row withPlan(UnaryOperator<RunPlan> change) {
            return new Row(label, change.apply(plan));
        }

        public BudgetPlan budget() {
            return plan.budget();
        }

        public Long budgetUs() {
            return plan.budget().budgetUs();
        }

        public Long periodUs() {
            return plan.budget().periodUs();
        }

        public String cpus() {
            return plan.budget().cpus();
        }

        public String threads() {
            return plan.budget().threads();
        }

        public String xenRow() {
            return plan.budget().xenRow();
        }

        public boolean identity() {
            return plan.job().identity();
        }

        public Map<String, String> jobOptions() {
            return plan.job().options();
        }

        public Integer cpuLatencyUs() {
            return plan.stack().cpuLatencyUs();
        }

        /** Share of one CPU per CPU of the real-time side, where the row sets a budget. */
        public double utilization() {
            return plan.budget().utilization();
        }
    }

    /**
     * @param p99Ms       a run meets the SLO when its steady-state p99 ...
     * @param maxMs       ... and its steady-state max stay within these
     * @param windowP95Ms the probe's windowed-p95 SLO for the violation ratio (the plans' load.slo_ms)
     */
    public record Slo(double p99Ms, double maxMs, double windowP95Ms) {}

    /**
     * @param kind    {@code cpu} (busy threads) or {@code io} (write + fsync)
     * @param threads how many
     * @param cpus    optional cpuset for the load
     */
    public record Interference(String kind, int threads, String cpus) {}

    /** The backend of every row (one per experiment, checked by {@link #read}). */
    public BudgetPlan.Backend backend() {
        return rows.get(0).budget().backend();
    }

    /** The real-time side's CPUs of every row. */
    public int vcpus() {
        return rows.get(0).budget().vcpus();
    }

    /** The first row's load: what the reports' headings describe. */
    public LoadPlan load() {
        return rows.get(0).plan().load();
    }

    /** Records measured per run, as the first row's load has them. */
    public long records() {
        return load().records();
    }

    /** The first row's warm-up and steady-state cut, as reports print them, e.g. {@code 60s warm-up (3,600 records), steady state from 0s}. */
    public String warmupDescription() {
        LoadPlan load = load();
        String phase = load.warmupRecords() == 0
                ? "no warm-up"
                : String.format(
                        Locale.ROOT,
                        "%s warm-up (%,d records)",
                        Durations.format(load.warmupDuration()),
                        load.warmupRecords());
        return phase + ", steady state from " + Durations.format(load.steadyAfter());
    }

    /** The same experiment with other rows (a tune's points, a command line's overrides). */
    public ExperimentSpec withRows(List<Row> others) {
        return new ExperimentSpec(name, description, others, repetitions, slo, interference, study, accuracyReference);
    }

    /** The same experiment with another number of runs per row. */
    public ExperimentSpec withRepetitions(int count) {
        return new ExperimentSpec(name, description, rows, count, slo, interference, study, accuracyReference);
    }

    /** The same experiment judged against another SLO. */
    public ExperimentSpec withSlo(Slo other) {
        return new ExperimentSpec(name, description, rows, repetitions, other, interference, study, accuracyReference);
    }

    /** Reads and checks an experiment file; every error names the file and the field. */
    public static ExperimentSpec read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new SpecException(file + ": no such experiment file");
        }
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (IOException e) {
            throw new SpecException(file + ": cannot be read: " + e.getMessage());
        }
        Raw raw;
        try {
            raw = MAPPER.readValue(yaml, Raw.class);
        } catch (UnrecognizedPropertyException e) {
            throw new SpecException(file + at(e, yaml) + ": " + path(e) + ": unknown key; known keys here: "
                    + e.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .sorted()
                            .toList());
        } catch (MismatchedInputException e) {
            String expected = e.getTargetType() == null ? "" : "expected " + typeName(e.getTargetType()) + "; ";
            throw new SpecException(file + at(e, yaml) + ": " + path(e) + ": " + expected + e.getOriginalMessage());
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof JsonParseException syntax) {
                // Databind wraps what the YAML parser could not read while it was in a field.
                throw new SpecException(file + at(syntax) + ": not valid YAML: " + syntax.getOriginalMessage());
            }
            String where = path(e);
            throw new SpecException(
                    file + at(e) + (where.isEmpty() ? "" : ": " + where) + ": " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new SpecException(file + at(e) + ": not valid YAML: " + e.getOriginalMessage());
        }
        if (raw == null) {
            throw new SpecException(file + ": empty file");
        }
        return raw.check(file, yaml);
    }

    /** Where the file has the key Jackson was reading, else where Jackson stopped. */
    private static String at(JsonMappingException e, String yaml) {
        List<Object> path = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? (Object) r.getFieldName() : (Object) r.getIndex())
                .toList();
        String key = RunPlanYaml.locate(yaml, path);
        return key.isEmpty() ? at(e) : key;
    }

    /** Where in the file Jackson stopped, as {@code : line L, column C}; empty when it does not say. */
    private static String at(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        return location == null || location.getLineNr() < 1
                ? ""
                : ": line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /** The field Jackson was reading, e.g. {@code slo.p99_ms}. */
    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }

    private static String typeName(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (JsonNode.class.isAssignableFrom(type)) {
            return "a mapping of keys to values";
        }
        return "a " + type.getSimpleName();
    }

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The file as written, before it is checked; the plan and the rows stay YAML trees until merged. */
    static final class Raw {
        public String name;
        public String description = "";
        public ObjectNode plan;
        public List<JsonNode> rows;
        public Integer repetitions = 1;
        public RawSlo slo = new RawSlo();
        public RawInterference interference;
        public String study;
        public String accuracyReference;

        ExperimentSpec check(Path file, String yaml) {
            Problems p = new Problems(file);
            p.require(
                    name != null && name.matches("[A-Za-z0-9._-]+"),
                    "name",
                    "a name of letters, digits, '.', '_' or '-' is required, got " + name);
            p.require(repetitions != null && repetitions >= 1, "repetitions", "must be >= 1, got " + repetitions);
            p.require(
                    slo != null && slo.p99Ms > 0 && slo.maxMs > 0,
                    "slo",
                    "p99_ms and max_ms must be > 0 (the probe's window SLO is the plan's load.slo_ms)");
            p.require(rows != null && !rows.isEmpty(), "rows", "at least one row is required");
            List<Row> checked = new ArrayList<>();
            ObjectNode base = plan != null ? plan : JsonNodeFactory.instance.objectNode();
            if (rows != null) {
                Set<String> labels = new HashSet<>();
                for (int i = 0; i < rows.size(); i++) {
                    String at = "rows[" + i + "]";
                    if (!(rows.get(i) instanceof ObjectNode row)) {
                        p.fail(at, "a row is a mapping: a label and the plan fields it replaces");
                        continue;
                    }
                    ObjectNode fields = row.deepCopy();
                    JsonNode label = fields.remove("label");
                    if (label != null && !label.isTextual()) {
                        p.fail(at + ".label", "expected a string, got " + label);
                        continue;
                    }
                    RunPlan rowPlan;
                    try {
                        rowPlan = RunPlanYaml.fromTree(
                                merge(base.deepCopy(), fields),
                                yaml,
                                file.toString(),
                                List.of(List.of("rows", i), List.of("plan")));
                    } catch (IllegalArgumentException e) {
                        p.add(e.getMessage());
                        continue;
                    }
                    p.require(
                            rowPlan.phases().run() == org.itsrt.pipeline.plan.PhasePlan.Run.ONE
                                    && !rowPlan.phases().profile(),
                            at + ".phases",
                            "a row is one run, not profiled; its rounds and repetitions are the experiment's");
                    String name = label != null ? label.asText() : defaultLabel(rowPlan);
                    p.require(labels.add(name), at + ".label", "duplicate label " + name);
                    if (!checked.isEmpty()) {
                        BudgetPlan first = checked.get(0).budget();
                        p.require(
                                rowPlan.budget().backend() == first.backend()
                                        && rowPlan.budget().vcpus() == first.vcpus(),
                                at + ".budget",
                                "every row of an experiment has one backend and one vcpus, the first row's: "
                                        + first.backend().yamlName + ", " + first.vcpus());
                    }
                    checked.add(new Row(name, rowPlan));
                }
            }
            if (interference != null) {
                p.require(
                        "cpu".equals(interference.kind) || "io".equals(interference.kind),
                        "interference.kind",
                        "cpu or io, got " + interference.kind);
                p.require(interference.threads >= 1, "interference.threads", "must be >= 1");
            }
            if (accuracyReference != null) {
                p.require(
                        checked.stream().anyMatch(r -> r.label().equals(accuracyReference)),
                        "accuracy_reference",
                        "the label of one of the rows (a row without --degrade), got " + accuracyReference);
            }
            p.throwIfAny();
            return new ExperimentSpec(
                    name,
                    description,
                    checked,
                    repetitions,
                    new Slo(slo.p99Ms, slo.maxMs, checked.get(0).plan().load().sloMs()),
                    interference == null
                            ? null
                            : new Interference(interference.kind, interference.threads, interference.cpus),
                    study,
                    accuracyReference);
        }

        /** {@code row}'s fields over {@code base}'s, mappings merged key by key, anything else replaced. */
        private static ObjectNode merge(ObjectNode base, ObjectNode row) {
            row.fields().forEachRemaining(field -> {
                JsonNode mine = base.get(field.getKey());
                if (mine instanceof ObjectNode mapping && field.getValue() instanceof ObjectNode over) {
                    merge(mapping, over);
                } else {
                    base.set(field.getKey(), field.getValue());
                }
            });
            return base;
        }

        private static String defaultLabel(RunPlan plan) {
            BudgetPlan budget = plan.budget();
            boolean identity = plan.job().identity();
            if (budget.xenRow() != null) {
                return budget.xenRow();
            }
            if (budget.budgetUs() != null && budget.periodUs() != null) {
                return budget.budgetUs() + "/" + budget.periodUs() + (identity ? " identity" : "");
            }
            return identity ? "identity floor" : "baseline";
        }
    }

    static final class RawSlo {
        public double p99Ms = 20;
        public double maxMs = 50;
    }

    static final class RawInterference {
        public String kind;
        public int threads = 1;
        public String cpus;
    }

    /** Collects every problem of a file, so that one run of the checker names them all. */
    static final class Problems {
        private final Path file;
        private final List<String> problems = new ArrayList<>();

        Problems(Path file) {
            this.file = file;
        }

        void require(boolean ok, String field, String message) {
            if (!ok) {
                fail(field, message);
            }
        }

        void fail(String field, String message) {
            problems.add(file + ": " + field + ": " + message);
        }

        /** A problem already named with its file and place. */
        void add(String located) {
            problems.add(located);
        }

        void throwIfAny() {
            if (!problems.isEmpty()) {
                throw new SpecException(String.join("\n", problems));
            }
        }
    }
}
