package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.itsrt.cli.BadDurationException;
import org.itsrt.cli.Durations;
import org.itsrt.records.Workload;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A {@link RunPlan} as YAML: keys in snake case as the records name them, times in the suite's
 * duration syntax ({@code 60s}, {@code 1m30s}), paths as written. Whatever cannot be read fails as a
 * {@link BadPlanFile} naming the file, the key with its line and column, and what was expected:
 * an unknown key, a value of the wrong type, or a value a part's checks refuse.
 */
public final class RunPlanYaml {

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // A builder's conveniences (a warm-up as a time) are no keys of the file.
            .enable(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES)
            .registerModule(new SimpleModule("its-plan")
                    .addSerializer(Duration.class, new DurationText())
                    .addDeserializer(Duration.class, new DurationRead())
                    .addSerializer(Path.class, new PathText())
                    .addDeserializer(Path.class, new PathRead())
                    .addSerializer(Workload.class, new WorkloadText())
                    .addDeserializer(Workload.class, new WorkloadRead()));

    /** The first lines of a written plan: what the keys left out mean. */
    static final String HEADER =
            "# A run plan of its-rt (docs/pipeline.md, \"Run plans\"): ./its demo --plan FILE runs it.\n"
                    + "# Paths left out are the repository's own: the committed sample, the shipped model, its-job's build.\n";

    private RunPlanYaml() {}

    /** The plan as a file holds it. */
    public static String write(RunPlan plan) {
        try {
            return HEADER + MAPPER.writeValueAsString(plan);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a run plan could not be written as YAML", e);
        }
    }

    /** One part of a plan under its key, e.g. the {@code stack} of a command that runs a campaign on it. */
    public static String writePart(String key, Object part) {
        try {
            return MAPPER.writeValueAsString(Map.of(key, part));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a run plan's " + key + " could not be written as YAML", e);
        }
    }

    /** Reads a plan file; every default its parts have fills what the file leaves out. */
    public static RunPlan read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BadPlanFile(file + ": no such plan file");
        }
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new BadPlanFile(file + ": cannot be read: " + e.getMessage());
        }
    }

    /** Reads a plan's YAML text; {@code source} names it in a refusal. */
    public static RunPlan parse(String yaml, String source) {
        return builder(yaml, source).build();
    }

    /**
     * A builder holding what a plan file says, to set more fields over it (a command line's
     * options); what it leaves out keeps the parts' defaults.
     */
    public static RunPlan.Builder builder(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BadPlanFile(file + ": no such plan file");
        }
        try {
            return builder(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new BadPlanFile(file + ": cannot be read: " + e.getMessage());
        }
    }

    private static RunPlan.Builder builder(String yaml, String source) {
        RunPlan plan;
        try {
            plan = yaml.isBlank() ? RunPlan.defaults() : MAPPER.readValue(yaml, RunPlan.class);
        } catch (JsonProcessingException e) {
            throw refusal(e, yaml, source, List.of(List.of()));
        }
        return (plan == null ? RunPlan.defaults() : plan).toBuilder();
    }

    /**
     * Reads a plan from a YAML tree that is part of a larger file, or made of several parts of it
     * (an experiment's base plan with a row's fields over it): a refusal names the file and the
     * key where the first of {@code prefixes} that holds it has it.
     *
     * @param yaml     the whole file's text, to place a refusal
     * @param prefixes where the tree's keys are in the file, tried in order, e.g. {@code rows[2]}, then {@code plan}
     */
    public static RunPlan fromTree(JsonNode tree, String yaml, String source, List<List<Object>> prefixes) {
        try {
            return MAPPER.treeToValue(tree, RunPlan.class);
        } catch (JsonProcessingException e) {
            throw refusal(e, yaml, source, prefixes);
        }
    }

    private static BadPlanFile refusal(
            JsonProcessingException e, String yaml, String source, List<List<Object>> prefixes) {
        List<Object> path = e instanceof JsonMappingException mapping ? path(mapping) : List.of();
        PlanException refused = cause(e, PlanException.class);
        BadDurationException badTime = cause(e, BadDurationException.class);
        if (refused != null) {
            // A part's check: the key it names where the file has it, else as much of it as the first
            // prefix holds (the row whose plan it is), else where Jackson was reading.
            List<Object> key =
                    new ArrayList<>(List.of((Object[]) refused.field().key().split("[.]")));
            Placed at = place(yaml, prefixes, key);
            if (at.where().isEmpty() && !prefixes.get(0).isEmpty()) {
                List<Object> within = new ArrayList<>(prefixes.get(0));
                within.addAll(key);
                at = new Placed(at(yaml, within, false), ": " + dotted(prefixes.get(0)));
            }
            if (at.where().isEmpty()) {
                at = place(yaml, prefixes, path);
            }
            String where = at.where().isEmpty() ? at(yaml, List.of(), e.getLocation()) : at.where();
            return new BadPlanFile(source + where + at.prefix() + ": " + refused.getMessage());
        }
        Placed placed = place(yaml, prefixes, path);
        String where = placed.where().isEmpty() ? at(yaml, List.of(), e.getLocation()) : placed.where();
        String key = (placed.prefix().isEmpty() ? "" : placed.prefix().substring(2) + ".") + dotted(path);
        if (e instanceof PropertyBindingException unknown) {
            return new BadPlanFile(source + where + ": " + key + ": unknown key; known keys here: "
                    + unknown.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .sorted()
                            .toList());
        }
        if (badTime != null) {
            return new BadPlanFile(source + where + ": " + key + ": " + badTime.detail());
        }
        if (e instanceof InvalidFormatException bad) {
            return new BadPlanFile(source + where + ": " + key + ": expected " + typeName(bad.getTargetType())
                    + ", got '" + bad.getValue() + "'");
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return new BadPlanFile(source + where + ": " + key + ": expected " + typeName(mismatch.getTargetType()));
        }
        if (!(e instanceof JsonMappingException)) {
            return new BadPlanFile(source + where + ": not valid YAML: " + e.getOriginalMessage());
        }
        return new BadPlanFile(source + where + (key.isEmpty() ? "" : ": " + key) + ": " + e.getOriginalMessage());
    }

    /**
     * Where the file has {@code path} under the first prefix that holds it: {@code : line L, column C}
     * and the prefix as {@code : rows[2]}; both empty when no prefix does.
     */
    private record Placed(String where, String prefix) {}

    /**
     * {@code : line L, column C} of the key at {@code path} in a YAML file (its deepest part the file
     * has); empty where the file has none of it. Jackson reports where it stopped reading, after the
     * value; this is where the key itself is.
     */
    public static String locate(String yaml, List<Object> path) {
        return path.isEmpty() ? "" : at(yaml, path, false);
    }

    private static Placed place(String yaml, List<List<Object>> prefixes, List<Object> path) {
        for (List<Object> prefix : prefixes) {
            List<Object> full = new ArrayList<>(prefix);
            full.addAll(path);
            String at = path.isEmpty() ? "" : at(yaml, full, true);
            if (!at.isEmpty()) {
                return new Placed(at, prefix.isEmpty() ? "" : ": " + dotted(prefix));
            }
        }
        return new Placed("", "");
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static List<Object> path(JsonMappingException e) {
        List<Object> path = new ArrayList<>();
        for (JsonMappingException.Reference r : e.getPath()) {
            path.add(r.getFieldName() != null ? r.getFieldName() : Integer.valueOf(r.getIndex()));
        }
        return path;
    }

    /** {@code stack.pins}, {@code phases.sweep.rates[1]}. */
    private static String dotted(List<Object> path) {
        StringBuilder text = new StringBuilder();
        for (Object step : path) {
            if (step instanceof Integer index) {
                text.append('[').append(index).append(']');
            } else {
                text.append(text.length() == 0 ? "" : ".").append(step);
            }
        }
        return text.toString();
    }

    /** {@code : line L, column C} of the key at {@code path}, else of Jackson's stop; empty when neither is known. */
    private static String at(String yaml, List<Object> path, JsonLocation stop) {
        String key = path.isEmpty() ? "" : at(yaml, path, false);
        if (!key.isEmpty() || stop == null || stop.getLineNr() < 1) {
            return key;
        }
        return ": line " + stop.getLineNr() + ", column " + stop.getColumnNr();
    }

    /**
     * Where the file has the key at {@code path} (the deepest part of it that is there), from
     * SnakeYAML's node marks: Jackson reports where it stopped reading, after the value.
     */
    private static String at(String yaml, List<Object> path, boolean whole) {
        Node node;
        try {
            node = new Yaml(new LoaderOptions()).compose(new StringReader(yaml));
        } catch (RuntimeException notYaml) {
            return "";
        }
        Node found = null;
        int matched = 0;
        for (Object step : path) {
            Node next = null;
            if (node instanceof MappingNode map && step instanceof String name) {
                for (NodeTuple tuple : map.getValue()) {
                    if (tuple.getKeyNode() instanceof ScalarNode k
                            && k.getValue().equals(name)) {
                        found = tuple.getKeyNode();
                        next = tuple.getValueNode();
                    }
                }
            } else if (node instanceof SequenceNode list && step instanceof Integer index) {
                if (index < list.getValue().size()) {
                    next = list.getValue().get(index);
                    found = next;
                }
            }
            if (next == null) {
                break;
            }
            matched++;
            node = next;
        }
        if (whole && matched < path.size()) {
            return "";
        }
        return found == null
                ? ""
                : ": line " + (found.getStartMark().getLine() + 1) + ", column "
                        + (found.getStartMark().getColumn() + 1);
    }

    private static String typeName(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class || type == Path.class || type == Duration.class) {
            return "a " + (type == Duration.class ? "duration such as 60s" : type == Path.class ? "path" : "string");
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type) || type.getSimpleName().endsWith("Plan") || type.isMemberClass()) {
            return "a mapping of keys to values";
        }
        return "a " + type.getSimpleName();
    }

    /** A plan file that cannot be read, one line per problem naming the file, the key and where it is. */
    public static final class BadPlanFile extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadPlanFile(String message) {
            super(message);
        }
    }

    private static final class DurationText extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator out, SerializerProvider serializers) throws IOException {
            out.writeString(Durations.format(value));
        }
    }

    private static final class DurationRead extends JsonDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser in, DeserializationContext context) throws IOException {
            return Durations.parse(in.getValueAsString(), in.currentName());
        }
    }

    /** A workload by its name on the command line, e.g. {@code district}. */
    private static final class WorkloadText extends JsonSerializer<Workload> {
        @Override
        public void serialize(Workload value, JsonGenerator out, SerializerProvider serializers) throws IOException {
            out.writeString(value.option());
        }
    }

    private static final class WorkloadRead extends JsonDeserializer<Workload> {
        @Override
        public Workload deserialize(JsonParser in, DeserializationContext context) throws IOException {
            String name = in.getValueAsString();
            try {
                return Workload.of(name);
            } catch (IllegalArgumentException e) {
                throw LoadPlan.WORKLOAD.refused(
                        "must be " + Workload.names().replace(", ", " or ") + ", got '" + name + "'");
            }
        }
    }

    private static final class PathText extends JsonSerializer<Path> {
        @Override
        public void serialize(Path value, JsonGenerator out, SerializerProvider serializers) throws IOException {
            out.writeString(value.toString());
        }
    }

    private static final class PathRead extends JsonDeserializer<Path> {
        @Override
        public Path deserialize(JsonParser in, DeserializationContext context) throws IOException {
            String text = in.getValueAsString();
            if (text == null || text.isBlank()) {
                return (Path) context.handleUnexpectedToken(Path.class, in);
            }
            return Path.of(text);
        }
    }
}
