package org.itsrt.experiment.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.itsrt.cli.BadDurationException;
import org.itsrt.cli.Durations;
import org.itsrt.producers.ProducerRun;
import org.itsrt.sched.budget.LinuxLimits;

/**
 * One experiment file (docs/design.md, D5): a scheduler backend and its parameter rows, the load, the
 * records per run, repetitions, warm-up and the SLO. Read with {@link #read(Path)}, which checks
 * every field and names the file and the field of the first thing wrong.
 *
 * @param name         a short name, used for the results folder
 * @param description  what the experiment asks, in words
 * @param backend      which backend applies the rows
 * @param vcpus        the real-time side's CPUs: a row's budget is per CPU, as in Xen's per-vCPU RTDS
 * @param rows         the configurations to compare, in order
 * @param load         rate of each of the six detector producers
 * @param records      records measured per run
 * @param repetitions  runs per row (fresh broker and cluster each)
 * @param warmup       each run's warm-up phase and steady-state cut (YAML {@code warmup},
 *                     {@code warmup_records}, {@code steady_after}), checked by {@link #read}
 * @param slo          what a row must meet
 * @param interference optional background load beside the job
 * @param job          job options, passed as {@code --KEY VALUE}
 * @param study        where the study's raw latency files are, to overlay them ("auto": the folder of the study's raw files beside the checkout, when present)
 */
public record ExperimentSpec(
        String name,
        String description,
        Backend backend,
        int vcpus,
        List<Row> rows,
        Load load,
        long records,
        int repetitions,
        Warmup warmup,
        Slo slo,
        Interference interference,
        Map<String, String> job,
        String study) {

    /** Where the rows are applied; see docs/scheduling.md. */
    public enum Backend {
        NONE("none"),
        LINUX_CGROUP("linux-cgroup"),
        LINUX_DEADLINE("linux-deadline"),
        XEN_RTDS("xen-rtds"),
        XEN_CREDIT("xen-credit"),
        XEN_CREDIT2("xen-credit2");

        public final String yamlName;

        Backend(String yamlName) {
            this.yamlName = yamlName;
        }

        static Backend of(String name) {
            for (Backend b : values()) {
                if (b.yamlName.equals(name)) {
                    return b;
                }
            }
            return null;
        }

        boolean isXen() {
            return yamlName.startsWith("xen-");
        }
    }

    /**
     * One configuration.
     *
     * @param label     row name in reports, e.g. {@code 76750/100000}
     * @param budgetUs  CPU time per period: per CPU of the real-time side (linux-cgroup: the group
     *                  gets vcpus x budget), or per selected thread (linux-deadline: its runtime)
     * @param periodUs  the period (linux-deadline: also the deadline)
     * @param cpus      optional cpuset (linux-cgroup), e.g. {@code 1} or {@code 0-1}
     * @param threads   linux-deadline: regex over thread names (comm) of the job's process
     * @param xenRow    a row of xen-configs/study-rows.tsv, applied by xen-configs/apply-row.sh
     * @param identity  run the identity job (the stack's floor: parse, then advice without predict
     *                  and route) instead of the job, so that one file measures both
     * @param job       this row's job options, over the file's {@code job:} (a lever such as the
     *                  engine, measured in the same rounds as the rows without it)
     * @param cpuLatencyUs a CPU latency request this host holds during the row's runs (0: idle CPUs
     *                  poll instead of halting), or null for none; a host lever measured beside the
     *                  rows without it
     */
    public record Row(
            String label,
            Long budgetUs,
            Long periodUs,
            String cpus,
            String threads,
            String xenRow,
            boolean identity,
            Map<String, String> job,
            Integer cpuLatencyUs) {

        public Row {
            job = Collections.unmodifiableMap(new LinkedHashMap<>(job));
        }

        /** A row that runs the job with the file's options. */
        public Row(String label, Long budgetUs, Long periodUs, String cpus, String threads, String xenRow) {
            this(label, budgetUs, periodUs, cpus, threads, xenRow, false, Map.of(), null);
        }

        /** The job options of a run of this row: the file's, then this row's over them. */
        public Map<String, String> jobOptions(Map<String, String> fileOptions) {
            Map<String, String> merged = new LinkedHashMap<>(fileOptions);
            merged.putAll(job);
            return Collections.unmodifiableMap(merged);
        }

        /** Share of one CPU per CPU of the real-time side, where the row sets a budget. */
        public double utilization() {
            return budgetUs != null && periodUs != null ? (double) budgetUs / periodUs : Double.NaN;
        }
    }

    /** @param rateHz records per second per detector producer */
    public record Load(double rateHz) {}

    /**
     * @param p99Ms       a run meets the SLO when its steady-state p99 ...
     * @param maxMs       ... and its steady-state max stay within these
     * @param windowP95Ms the probe's windowed-p95 SLO for the violation ratio
     */
    public record Slo(double p99Ms, double maxMs, double windowP95Ms) {}

    /**
     * @param kind    {@code cpu} (busy threads) or {@code io} (write + fsync)
     * @param threads how many
     * @param cpus    optional cpuset for the load
     */
    public record Interference(String kind, int threads, String cpus) {}

    /**
     * A run's warm-up: flagged records the producers send before the measured ones, kept out of
     * every measured figure by the probe, given as a time ({@code warmup}, e.g. {@code 60s}, in
     * {@link Durations} syntax) or as records in all ({@code warmupRecords}), never both; and the
     * steady-state cut within the measured records ({@code steadyAfter}).
     *
     * @param time        the warm-up as written, null when given as records
     * @param records     the warm-up in records, null when given as a time
     * @param steadyAfter the steady-state cut as written; null for none: the warm-up phase keeps
     *                    the start out (and {@code warmup: 0s} then runs as such a file always did)
     */
    public record Warmup(String time, Long records, String steadyAfter) {

        /** The default: a 60-s warm-up, as a full demo run's. */
        public static final Warmup DEFAULT = new Warmup("60s", null, null);

        /** Warm-up records in all for {@code detectors} producers at {@code rateHz} each. */
        public long recordsAt(double rateHz, int detectors) {
            if (records != null) {
                return records;
            }
            return ProducerRun.warmupRecordsOf(Durations.parse(time, "warmup"), rateHz, detectors);
        }

        /** The steady-state cut: as given, else none. */
        public Duration steadyAfterDuration() {
            return steadyAfter != null ? Durations.parse(steadyAfter, "steady_after") : Duration.ZERO;
        }

        /** As reports print it, e.g. {@code 60s warm-up, steady state from 0s}. */
        public String describe(double rateHz, int detectors) {
            long n = recordsAt(rateHz, detectors);
            String phase = n == 0
                    ? "no warm-up"
                    : (time != null
                            ? String.format(java.util.Locale.ROOT, "%s warm-up (%,d records)", time, n)
                            : String.format(java.util.Locale.ROOT, "%,d warm-up records", n));
            return phase + ", steady state from " + Durations.format(steadyAfterDuration());
        }
    }

    /** Reads and checks an experiment file; every error names the file and the field. */
    public static ExperimentSpec read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new SpecException(file + ": no such experiment file");
        }
        Raw raw;
        try {
            raw = MAPPER.readValue(file.toFile(), Raw.class);
        } catch (UnrecognizedPropertyException e) {
            throw new SpecException(file + keyAt(file, e) + ": " + path(e) + ": unknown key; known keys here: "
                    + e.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .sorted()
                            .toList());
        } catch (MismatchedInputException e) {
            String expected = e.getTargetType() == null ? "" : "expected " + typeName(e.getTargetType()) + "; ";
            throw new SpecException(file + at(e) + ": " + path(e) + ": " + expected + e.getOriginalMessage());
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
        } catch (IOException e) {
            throw new SpecException(file + ": cannot be read: " + e.getMessage());
        }
        if (raw == null) {
            throw new SpecException(file + ": empty file");
        }
        return raw.check(file);
    }

    /** Where in the file Jackson stopped, as {@code : line L, column C}; empty when it does not say. */
    private static String at(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        return location == null || location.getLineNr() < 1
                ? ""
                : ": line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /**
     * Where an unknown key is. Jackson reports it where it stopped, after the key's value; the
     * key itself is on that line (or, for a block value, on the first line of it), where the
     * column is the key's own.
     */
    private static String keyAt(Path file, UnrecognizedPropertyException e) {
        JsonLocation location = e.getLocation();
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        Pattern key =
                Pattern.compile("(?:^|[\\s{,-])(" + Pattern.quote(String.valueOf(e.getPropertyName())) + ")\\s*:");
        try {
            List<String> lines = Files.readAllLines(file);
            for (int line = Math.min(location.getLineNr(), lines.size()); line >= 1; line--) {
                Matcher m = key.matcher(lines.get(line - 1));
                if (m.find()) {
                    return ": line " + line + ", column " + (m.start(1) + 1);
                }
            }
        } catch (IOException ignored) {
            // The file was read a moment ago; without it, Jackson's own position still helps.
        }
        return at(e);
    }

    /** The field Jackson was reading, e.g. {@code rows[1].budget_us}. */
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
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a " + type.getSimpleName();
    }

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The file as written, before it is checked. */
    static final class Raw {
        public String name;
        public String description = "";
        public String backend;
        public Integer vcpus = 2;
        public List<RawRow> rows;
        public RawLoad load = new RawLoad();
        public Long records;
        public Integer repetitions = 1;
        public String warmup;
        public Long warmupRecords;
        public String steadyAfter;
        public RawSlo slo = new RawSlo();
        public RawInterference interference;
        public Map<String, String> job = new LinkedHashMap<>();
        public String study;

        ExperimentSpec check(Path file) {
            Problems p = new Problems(file);
            p.require(
                    name != null && name.matches("[A-Za-z0-9._-]+"),
                    "name",
                    "a name of letters, digits, '.', '_' or '-' is required, got " + name);
            Backend b = backend == null ? null : Backend.of(backend);
            p.require(
                    b != null,
                    "backend",
                    "one of "
                            + List.of("none", "linux-cgroup", "linux-deadline", "xen-rtds", "xen-credit", "xen-credit2")
                            + " is required, got " + backend);
            p.require(vcpus != null && vcpus >= 1, "vcpus", "must be >= 1, got " + vcpus);
            p.require(records != null && records > 0, "records", "must be > 0, got " + records);
            p.require(repetitions != null && repetitions >= 1, "repetitions", "must be >= 1, got " + repetitions);
            p.require(
                    load != null && load.rateHz != null && load.rateHz > 0,
                    "load.rate_hz",
                    "must be > 0, got " + (load == null ? null : load.rateHz));
            if (warmup != null && warmupRecords != null) {
                p.fail("warmup", "give warmup (a time) or warmup_records (a count), not both");
            }
            if (warmup != null) {
                try {
                    Durations.parse(warmup, "warmup");
                } catch (BadDurationException e) {
                    p.fail("warmup", e.detail());
                }
            }
            p.require(
                    warmupRecords == null || warmupRecords >= 0,
                    "warmup_records",
                    "must be >= 0, got " + warmupRecords);
            if (steadyAfter != null) {
                try {
                    Durations.parse(steadyAfter, "steady_after");
                } catch (BadDurationException e) {
                    p.fail("steady_after", e.detail());
                }
            }
            p.require(
                    slo != null && slo.p99Ms > 0 && slo.maxMs > 0 && slo.windowP95Ms > 0,
                    "slo",
                    "p99_ms, max_ms and window_p95_ms must be > 0");
            p.require(rows != null && !rows.isEmpty(), "rows", "at least one row is required");
            List<Row> checked = new ArrayList<>();
            if (rows != null && b != null) {
                Set<String> labels = new HashSet<>();
                for (int i = 0; i < rows.size(); i++) {
                    RawRow r = rows.get(i);
                    String at = "rows[" + i + "]";
                    if (r == null) {
                        p.fail(at, "empty row");
                        continue;
                    }
                    String label = r.label != null ? r.label : defaultLabel(r);
                    p.require(labels.add(label), at + ".label", "duplicate label " + label);
                    r.check(b, at, p);
                    checked.add(new Row(
                            label,
                            r.budgetUs,
                            r.periodUs,
                            r.cpus,
                            r.threads,
                            r.xenRow,
                            Boolean.TRUE.equals(r.identity),
                            r.job == null ? Map.of() : r.job,
                            r.cpuLatencyUs));
                }
            }
            if (interference != null) {
                p.require(
                        "cpu".equals(interference.kind) || "io".equals(interference.kind),
                        "interference.kind",
                        "cpu or io, got " + interference.kind);
                p.require(interference.threads >= 1, "interference.threads", "must be >= 1");
            }
            p.throwIfAny();
            return new ExperimentSpec(
                    name,
                    description,
                    b,
                    vcpus,
                    List.copyOf(checked),
                    new Load(load.rateHz),
                    records,
                    repetitions,
                    warmup == null && warmupRecords == null
                            ? new Warmup(Warmup.DEFAULT.time(), null, steadyAfter)
                            : new Warmup(warmup, warmupRecords, steadyAfter),
                    new Slo(slo.p99Ms, slo.maxMs, slo.windowP95Ms),
                    interference == null
                            ? null
                            : new Interference(interference.kind, interference.threads, interference.cpus),
                    // In the file's order: the job gets its options in the order they were written.
                    Collections.unmodifiableMap(new LinkedHashMap<>(job == null ? Map.of() : job)),
                    study);
        }

        private static String defaultLabel(RawRow r) {
            if (r.xenRow != null) {
                return r.xenRow;
            }
            if (r.budgetUs != null && r.periodUs != null) {
                return r.budgetUs + "/" + r.periodUs + (Boolean.TRUE.equals(r.identity) ? " identity" : "");
            }
            return Boolean.TRUE.equals(r.identity) ? "identity floor" : "baseline";
        }
    }

    static final class RawRow {
        public String label;
        public Long budgetUs;
        public Long periodUs;
        public String cpus;
        public String threads;
        public String xenRow;
        public Boolean identity;
        public Map<String, String> job;
        public Integer cpuLatencyUs;

        void check(Backend backend, String at, Problems p) {
            p.require(
                    cpuLatencyUs == null || cpuLatencyUs >= 0,
                    at + ".cpu_latency_us",
                    "microseconds >= 0 are required (0: idle CPUs poll), got " + cpuLatencyUs);
            switch (backend) {
                case NONE ->
                    p.require(
                            budgetUs == null && periodUs == null && xenRow == null,
                            at,
                            "backend none takes no budget_us, period_us or xen_row");
                case LINUX_CGROUP, LINUX_DEADLINE -> {
                    boolean cgroup = backend == Backend.LINUX_CGROUP;
                    // The kernel's own limits, as the backends check them (LinuxLimits).
                    long minPeriod = cgroup ? LinuxLimits.CFS_MIN_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MIN_US;
                    long maxPeriod = cgroup ? LinuxLimits.CFS_MAX_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MAX_US;
                    long minBudget = cgroup ? LinuxLimits.CFS_MIN_QUOTA_US : 1;
                    p.require(
                            periodUs != null && periodUs >= minPeriod && periodUs <= maxPeriod,
                            at + ".period_us",
                            minPeriod + ".." + maxPeriod + " us is required, got " + periodUs);
                    p.require(
                            budgetUs != null && budgetUs >= minBudget && (periodUs == null || budgetUs <= periodUs),
                            at + ".budget_us",
                            minBudget + " us..period_us is required (per CPU" + (cgroup ? "" : " thread") + "), got "
                                    + budgetUs);
                    if (!cgroup && budgetUs != null && periodUs != null) {
                        String problem = LinuxLimits.deadlineProblem(budgetUs * 1000, periodUs * 1000, periodUs * 1000);
                        p.require(problem == null, at, String.valueOf(problem));
                    }
                    p.require(xenRow == null, at + ".xen_row", "only xen-* backends take xen_row");
                    p.require(cgroup || cpus == null, at + ".cpus", "only linux-cgroup rows pin to cpus");
                    p.require(!cgroup || threads == null, at + ".threads", "only linux-deadline rows select threads");
                }
                default ->
                    p.require(
                            xenRow != null && budgetUs == null && periodUs == null,
                            at + ".xen_row",
                            "a row name of xen-configs/study-rows.tsv (and nothing else) is required for "
                                    + backend.yamlName);
            }
            if (threads != null) {
                try {
                    java.util.regex.Pattern.compile(threads);
                } catch (java.util.regex.PatternSyntaxException e) {
                    p.fail(at + ".threads", "not a regular expression: " + e.getDescription());
                }
            }
            if (cpus != null) {
                p.require(
                        cpus.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*"),
                        at + ".cpus",
                        "a CPU list like 1 or 0-1 or 0,2, got " + cpus);
            }
        }
    }

    static final class RawLoad {
        public Double rateHz = 10.0;
    }

    static final class RawSlo {
        public double p99Ms = 20;
        public double maxMs = 50;

        @JsonProperty("window_p95_ms")
        public double windowP95Ms = 20;
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

        void throwIfAny() {
            if (!problems.isEmpty()) {
                throw new SpecException(String.join("\n", problems));
            }
        }
    }
}
