package org.itsrt.job.config;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.itsrt.records.Workload;

/**
 * One option of the job, declared once in {@link JobOptions}: its name, the settings group it
 * belongs to, how its value is read and checked, its default, and the two texts that explain it
 * (the one-line help of {@code --help} and the "why" of the options table in docs/job.md). The
 * parser, {@link JobSettings#usage()}, {@link JobSettings#asMap()} and the documentation all read
 * the same descriptor, so a default or a range cannot differ between them.
 *
 * @param <T> the value's type once read
 */
public final class JobOption<T> {

    /** The groups of {@link JobSettings}, in the order they are listed. */
    public enum Group {
        KAFKA("Kafka ends"),
        WORKLOAD("Workload"),
        MODEL("Model and engine"),
        ROUTING("Routing"),
        RUNTIME("Latency and runtime"),
        DELIVERY("Delivery");

        private final String title;

        Group(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /** Turns an option's text into its value, or fails naming the option. */
    @FunctionalInterface
    interface Reader<T> {
        T read(String option, String text);
    }

    /** ParameterTool's value for an option given without one ({@code --identity}). */
    static final String NO_VALUE = "__NO_VALUE_KEY";

    /** Kafka's own rule for topic names (Topic.validate): legal characters, at most 249 of them. */
    private static final Pattern ID_TEXT = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

    private final String name;
    private final Group group;
    private final String valueLabel;
    private final Reader<T> reader;
    private final T defaultValue;
    private final String defaultText;
    private final String help;
    private final String why;
    private final String requiredProblem;
    private final Function<JobSettings, String> shown;
    private final BiConsumer<JobSettings, Map<String, String>> shownAfter;
    private final Workload onlyFor;

    private JobOption(Builder<T> b) {
        this.name = b.name;
        this.group = b.group;
        this.valueLabel = b.valueLabel;
        this.reader = b.reader;
        this.defaultValue = b.defaultValue;
        this.defaultText = b.defaultText;
        this.help = b.help;
        this.why = b.why;
        this.requiredProblem = b.requiredProblem;
        this.shown = b.shown;
        this.shownAfter = b.shownAfter;
        this.onlyFor = b.onlyFor;
    }

    // ---- declaring ----------------------------------------------------------------------------

    static Builder<String> text(String name, Group group, String valueLabel) {
        return new Builder<>(name, group, valueLabel, (option, text) -> text);
    }

    /** An option whose text {@code reader} turns into a value, failing with a JobSettingsException. */
    static <T> Builder<T> of(String name, Group group, String valueLabel, Reader<T> reader) {
        return new Builder<>(name, group, valueLabel, reader);
    }

    static Builder<String> topic(String name, String defaultValue) {
        return new Builder<String>(name, Group.KAFKA, "NAME", (option, text) -> {
                    // Kafka's own rule, so that a name the broker would refuse stops the job at start.
                    try {
                        Topic.validate(text);
                    } catch (InvalidTopicException e) {
                        throw new JobSettingsException(
                                option,
                                "'" + text + "' is not a legal Kafka topic name "
                                        + "(1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'; not '.' or '..'): "
                                        + e.getMessage());
                    }
                    return text;
                })
                .defaultsTo(defaultValue);
    }

    /** A name Kafka keeps for the job: a consumer group or a transactional id prefix. */
    static Builder<String> id(String name, Group group, String valueLabel, String defaultValue) {
        return new Builder<String>(name, group, valueLabel, (option, text) -> {
                    if (!ID_TEXT.matcher(text).matches()) {
                        throw new JobSettingsException(
                                option, "'" + text + "' must be 1 to 200 of a-z, A-Z, 0-9, '.', '_', '-'");
                    }
                    return text;
                })
                .defaultsTo(defaultValue);
    }

    /** A whole number in {@code min..max}; {@code Long.MAX_VALUE} as max means no upper bound. */
    static Builder<Long> number(String name, Group group, String valueLabel, long min, long max) {
        return new Builder<>(name, group, valueLabel, (option, text) -> {
            long parsed;
            try {
                parsed = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new JobSettingsException(option, "not a whole number: '" + text + "'");
            }
            if (parsed < min || parsed > max) {
                throw new JobSettingsException(
                        option,
                        parsed + " is out of range " + min + ".." + (max == Long.MAX_VALUE ? "" : String.valueOf(max)));
            }
            return parsed;
        });
    }

    /** A switch: given alone, or with true or false; off unless given. */
    static Builder<Boolean> toggle(String name, Group group) {
        return new Builder<Boolean>(name, group, null, (option, text) -> {
                    if (NO_VALUE.equals(text) || text.equalsIgnoreCase("true")) {
                        return true;
                    }
                    if (text.equalsIgnoreCase("false")) {
                        return false;
                    }
                    throw new JobSettingsException(
                            option, "is a switch: give it alone, or with true or false, not '" + text + "'");
                })
                .defaultsTo(false)
                .defaultText("off");
    }

    /** One of the names of {@code type}, in any case. */
    static <E extends Enum<E>> Builder<E> choice(String name, Group group, Class<E> type, String problem) {
        return new Builder<>(name, group, null, (option, text) -> {
            try {
                return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new JobSettingsException(option, "'" + text + "' " + problem);
            }
        });
    }

    /** Options {@code --PREFIXKEY VALUE} handed to a Kafka client as they are. */
    static Builder<Map<String, String>> properties(String prefix, Group group) {
        return new Builder<Map<String, String>>(prefix, group, "VALUE", null)
                .defaultsTo(Map.of())
                .defaultText("none");
    }

    // ---- reading ------------------------------------------------------------------------------

    /** The option as the command line spells it, e.g. {@code --input-topic} or {@code --consumer.KEY}. */
    public String flag() {
        return "--" + name + (isPrefix() ? "KEY" : "");
    }

    String name() {
        return name;
    }

    public Group group() {
        return group;
    }

    boolean isPrefix() {
        return name.endsWith(".");
    }

    /** Whether {@code key} (without {@code --}) is this option, or one of its keys for a prefix. */
    boolean matches(String key) {
        return isPrefix() ? key.startsWith(name) && key.length() > name.length() : key.equals(name);
    }

    /** The value given, or the declared default. */
    T read(Map<String, String> options) {
        return read(options, defaultValue);
    }

    /** The value given, or {@code fallback} when the option is absent. */
    @SuppressWarnings("unchecked")
    T read(Map<String, String> options, T fallback) {
        if (isPrefix()) {
            Map<String, String> values = new TreeMap<>();
            options.forEach((key, value) -> {
                if (matches(key)) {
                    values.put(key.substring(name.length()), requireValue("--" + key, value));
                }
            });
            return (T) Collections.unmodifiableSortedMap((TreeMap<String, String>) values);
        }
        String value = options.get(name);
        if (value == null) {
            if (requiredProblem != null) {
                throw new JobSettingsException(flag(), "required: " + requiredProblem);
            }
            return fallback;
        }
        if (valueLabel == null && NO_VALUE.equals(value)) {
            return reader.read(flag(), value);
        }
        return reader.read(flag(), requireValue(flag(), value).trim());
    }

    private static String requireValue(String option, String value) {
        if (value == null || NO_VALUE.equals(value) || value.isBlank()) {
            throw new JobSettingsException(option, "needs a value");
        }
        return value;
    }

    // ---- describing ---------------------------------------------------------------------------

    /** Puts this option's effective value (and what was derived from it) into {@code map}. */
    void describe(JobSettings settings, Map<String, String> map) {
        if (onlyFor != null && settings.workload() != onlyFor) {
            return;
        }
        if (shown != null) {
            String value = shown.apply(settings);
            if (value != null) {
                map.put(name, value);
            }
        }
        if (shownAfter != null) {
            shownAfter.accept(settings, map);
        }
    }

    /** How the option and its value are written in help and docs, e.g. {@code --model DIR}. */
    String synopsis() {
        return valueLabel == null ? flag() : flag() + " " + valueLabel;
    }

    String help() {
        return help;
    }

    String why() {
        return why;
    }

    String defaultText() {
        return defaultText;
    }

    /** Fills in a descriptor; {@link #build} registers it with {@link JobOptions}. */
    static final class Builder<T> {
        private final String name;
        private final Group group;
        private String valueLabel;
        private final Reader<T> reader;
        private T defaultValue;
        private String defaultText;
        private String help;
        private String why;
        private String requiredProblem;
        private Function<JobSettings, String> shown;
        private BiConsumer<JobSettings, Map<String, String>> shownAfter;
        private Workload onlyFor;

        private Builder(String name, Group group, String valueLabel, Reader<T> reader) {
            this.name = name;
            this.group = group;
            this.valueLabel = valueLabel;
            this.reader = reader;
        }

        Builder<T> valueLabel(String label) {
            this.valueLabel = label;
            return this;
        }

        Builder<T> defaultsTo(T value) {
            this.defaultValue = value;
            if (defaultText == null && value != null) {
                this.defaultText = "`" + value + "`";
            }
            return this;
        }

        /** The default as help and docs state it, when it is not simply the value. */
        Builder<T> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        /** No default: a run without the option fails with "required: {@code what}". */
        Builder<T> required(String what) {
            this.requiredProblem = what;
            this.defaultText = "required";
            return this;
        }

        Builder<T> help(String text) {
            this.help = text;
            return this;
        }

        Builder<T> why(String text) {
            this.why = text;
            return this;
        }

        /** How {@link JobSettings#asMap()} shows the effective value; null from it leaves the option out. */
        Builder<T> shown(Function<JobSettings, String> value) {
            this.shown = value;
            return this;
        }

        /** An option of one workload's: {@link JobSettings#asMap()} shows it for that workload only. */
        Builder<T> onlyFor(Workload workload) {
            this.onlyFor = workload;
            return this;
        }

        /** What {@link JobSettings#asMap()} shows after the option: values derived from it. */
        Builder<T> shownAfter(BiConsumer<JobSettings, Map<String, String>> derived) {
            this.shownAfter = derived;
            return this;
        }

        JobOption<T> build() {
            if (help == null || why == null || defaultText == null) {
                throw new IllegalStateException("--" + name + " needs a help text, a why and a default");
            }
            JobOption<T> option = new JobOption<>(this);
            JobOptions.register(option);
            return option;
        }
    }
}
