package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.producers.LoadStepOption;
import org.itsrt.producers.ProducerPlan;
import org.itsrt.producers.ProducerRun;
import org.itsrt.producers.send.LoadStep;
import org.itsrt.records.Workload;

/**
 * What the producers send and how the probe judges it. Every count is in records, the unit the
 * producers, the probe and the reports agree on: a warm-up given as a time is turned into records
 * once, by {@link Builder#build()}, at the plan's own rate over its own detectors.
 *
 * @param workload           the study's (the default) or a district's; the district replays every detector
 *                           of {@code district} and sends route requests beside them
 * @param district           the district of the district workload; null for the study
 * @param data               canonical readings to replay; null for the committed sample (the study) or
 *                           the district's imported table (the district)
 * @param detectors          VDS ids, one producer each; empty for the district (all of its detectors)
 * @param rateHz             records per second of each detector (open loop)
 * @param records            measured records, all detectors together
 * @param warmupRecords      flagged warm-up records sent first, all detectors together (0: none)
 * @param steadyAfter        left out of the steady-state rows, from the first measured arrival
 * @param sloMs              the SLO for a window's p95
 * @param producerProperties Kafka producer settings for the detector producers
 * @param consumerProperties Kafka consumer settings for the probe
 * @param step               the rate stepped for a while from the first record sent (warm-up
 *                           included), {@code AT,LENGTH,FACTOR} in a file; null: a constant rate
 */
@JsonDeserialize(builder = LoadPlan.Builder.class)
@JsonPropertyOrder({
    "workload",
    "district",
    "data",
    "detectors",
    "rate_hz",
    "records",
    "warmup_records",
    "steady_after",
    "slo_ms",
    "producer_properties",
    "consumer_properties",
    "step"
})
public record LoadPlan(
        Workload workload,
        DistrictPlan district,
        Path data,
        List<Long> detectors,
        double rateHz,
        long records,
        long warmupRecords,
        Duration steadyAfter,
        double sloMs,
        Map<String, String> producerProperties,
        Map<String, String> consumerProperties,
        @JsonSerialize(using = ToStringSerializer.class) LoadStep step) {

    public static final PlanField WORKLOAD = new PlanField("load.workload", "--workload");
    public static final PlanField DISTRICT = new PlanField("load.district", null);
    public static final PlanField DATA = new PlanField("load.data", "--data");
    public static final PlanField DETECTORS = new PlanField("load.detectors", "--detectors");
    public static final PlanField RATE = new PlanField("load.rate_hz", "--rate");
    public static final PlanField RECORDS = new PlanField("load.records", "--records");
    public static final PlanField WARMUP_RECORDS = new PlanField("load.warmup_records", "--warmup-records");
    public static final PlanField WARMUP = new PlanField("load.warmup_records", "--warmup");
    public static final PlanField STEADY_AFTER = new PlanField("load.steady_after", "--steady-after");
    public static final PlanField SLO = new PlanField("load.slo_ms", "--slo-ms");
    public static final PlanField STEP = new PlanField("load.step", "--load-step");

    /** The study's load: 10 records/s from each of its six detectors. */
    public static final double STUDY_RATE_HZ = 10;

    /**
     * A district's readings unless a rate is given: the real 5-minute cadence 100 times faster, one
     * reading per detector every 3 s (1,600 readings/s of 4,800 detectors).
     */
    public static final double DISTRICT_RATE_HZ = 100 / 300.0;

    /** The study's run: 20,000 measured records. */
    public static final long STUDY_RECORDS = 20_000;

    /**
     * The warm-up of a full run: long enough for the job's JIT compilation, the predictor's and
     * Kafka's caches and Flink's network buffers to settle before the measured records
     * (docs/pipeline.md, "Warm-up", gives the settle times behind it).
     */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(60);

    /** A quick run: this long of measured records, after a third of it as warm-up. */
    public static final Duration QUICK_MEASURED = Duration.ofSeconds(30);

    public static final Duration QUICK_WARMUP = Duration.ofSeconds(10);

    /** Without a warm-up phase the steady-state rows cut the start, as runs without one always did. */
    static final Duration CUT_WITHOUT_WARMUP = Duration.ofSeconds(120);

    static final Duration QUICK_CUT_WITHOUT_WARMUP = Duration.ofSeconds(10);

    public LoadPlan {
        workload = workload != null ? workload : Workload.STUDY;
        detectors = List.copyOf(detectors);
        producerProperties = unmodifiable(producerProperties);
        consumerProperties = unmodifiable(consumerProperties);
        // Null for a constant rate, so that a written plan has no step key unless it steps.
        step = step == null || step.isNone() ? null : step;
        if (workload == Workload.DISTRICT) {
            DISTRICT.require(district != null, "must be given for the district workload");
            DETECTORS.require(
                    detectors.isEmpty(),
                    "names the study's detectors; the district workload replays every detector of its district "
                            + "(load.district.detectors sizes a generated one)");
        } else {
            DISTRICT.require(district == null, "is for the district workload: set load.workload: district");
            DETECTORS.require(!detectors.isEmpty(), "must name at least one detector");
        }
        // The producers' own rules, one implementation: a load they would refuse is no plan.
        try {
            ProducerPlan.checkLoad(rateHz, records, warmupRecords);
        } catch (ProducerRun.InvalidPlan e) {
            PlanField field =
                    switch (e.field()) {
                        case "ratePerDetector" -> RATE;
                        case "records" -> RECORDS;
                        default -> WARMUP_RECORDS;
                    };
            throw field.refused(e.problem());
        }
        STEADY_AFTER.require(steadyAfter != null && !steadyAfter.isNegative(), "must not be negative");
        SLO.require(sloMs > 0 && !Double.isInfinite(sloMs), "must be > 0 ms, got " + sloMs);
    }

    /** The rate's step; {@link LoadStep#NONE} for a constant rate. */
    public LoadStep loadStep() {
        return step == null ? LoadStep.NONE : step;
    }

    /** How long the warm-up lasts at this load's rate. */
    public Duration warmupDuration() {
        return Duration.ofNanos(Math.round(warmupRecords / (rateHz * detectorCount()) * 1e9));
    }

    /** The detectors sending: the study's listed ones, or the district's. */
    public int detectorCount() {
        return workload == Workload.DISTRICT ? district.detectors() : detectors.size();
    }

    /**
     * The district's measured route requests: as many as its request rate sends while the measured
     * readings are sent, at least one; 0 for the study and for a district without requests.
     */
    public long requestRecords() {
        return sendsRequests()
                ? ProducerRun.Requests.measured(district.requestsPerSecond(), records, rateHz, detectorCount())
                : 0;
    }

    /** Whether route requests go beside the readings: a district's, at a rate above 0. */
    public boolean sendsRequests() {
        return workload == Workload.DISTRICT && district.requestsPerSecond() > 0;
    }

    /** The district's warm-up requests, sent while the warm-up readings are; 0 for the study. */
    public long requestWarmupRecords() {
        return sendsRequests()
                ? ProducerRun.Requests.warmup(district.requestsPerSecond(), warmupRecords, rateHz, detectorCount())
                : 0;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this plan's values, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .workload(workload)
                .district(district)
                .data(data)
                .detectors(detectors)
                .rateHz(rateHz)
                .records(records)
                .warmupRecords(warmupRecords)
                .steadyAfter(steadyAfter)
                .sloMs(sloMs)
                .producerProperties(producerProperties)
                .consumerProperties(consumerProperties)
                .loadStep(step);
    }

    private static Map<String, String> unmodifiable(Map<String, String> properties) {
        // In the order given: settings print as they were written.
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties == null ? Map.of() : properties));
    }

    /**
     * The defaults are a full run of the study's load: six detectors at 10 records/s, 20,000
     * measured records after a 60 s warm-up, the steady state from the first measured record.
     */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Workload workload = Workload.STUDY;
        private DistrictPlan.Builder district;
        private Path data;
        private List<Long> detectors;
        private Double rateHz;
        private Long records;
        private Long warmupRecords;
        private Duration warmup;
        private Duration steadyAfter;
        private double sloMs = 20;
        private Map<String, String> producerProperties = Map.of();
        private Map<String, String> consumerProperties = Map.of();
        private boolean quick;
        private LoadStep step = LoadStep.NONE;

        /** The workload; the district's defaults ({@link DistrictPlan#builder()}) unless a district is given. */
        public Builder workload(Workload chosen) {
            this.workload = chosen;
            return this;
        }

        /** The workload chosen so far. */
        public Workload chosenWorkload() {
            return workload;
        }

        /** The district of the district workload; null: its defaults, for the district workload. */
        public Builder district(DistrictPlan part) {
            this.district = part == null ? null : part.toBuilder();
            return this;
        }

        /**
         * The district's fields, open to change until {@link #build()}: the district given, else its
         * defaults. A command line sets single fields over it.
         */
        @JsonIgnore
        public DistrictPlan.Builder districtFields() {
            if (district == null) {
                district = DistrictPlan.builder();
            }
            return district;
        }

        public Builder data(Path file) {
            this.data = file;
            return this;
        }

        public Builder detectors(List<Long> ids) {
            this.detectors = ids;
            return this;
        }

        public Builder rateHz(double perDetector) {
            this.rateHz = perDetector;
            return this;
        }

        public Builder records(long measured) {
            this.records = measured;
            return this;
        }

        /** The warm-up in records, all detectors together; replaces a warm-up given as a time. */
        public Builder warmupRecords(long total) {
            this.warmupRecords = total;
            this.warmup = null;
            return this;
        }

        /**
         * The warm-up as a time, turned into records by {@link #build()} at the final rate, whole
         * records per detector so that every detector warms up as long; replaces a count.
         */
        @JsonIgnore
        public Builder warmup(Duration time) {
            WARMUP.require(!time.isNegative(), "must not be negative, got " + time);
            this.warmup = time;
            this.warmupRecords = null;
            return this;
        }

        /**
         * A warm-up as a command line gives it: as a time or as records, never both; neither leaves
         * the builder's warm-up as it is.
         */
        public Builder warmup(Duration time, Long records) {
            WARMUP.require(time == null || records == null, "and --warmup-records are mutually exclusive: give one");
            if (time != null) {
                warmup(time);
            } else if (records != null) {
                warmupRecords(records);
            }
            return this;
        }

        public Builder steadyAfter(Duration cut) {
            this.steadyAfter = cut;
            return this;
        }

        public Builder sloMs(double ms) {
            this.sloMs = ms;
            return this;
        }

        public Builder producerProperties(Map<String, String> properties) {
            this.producerProperties = properties;
            return this;
        }

        public Builder consumerProperties(Map<String, String> properties) {
            this.consumerProperties = properties;
            return this;
        }

        /** The rate stepped for a while; null or {@link LoadStep#NONE}: constant. */
        @JsonIgnore
        public Builder loadStep(LoadStep stepped) {
            this.step = stepped == null ? LoadStep.NONE : stepped;
            return this;
        }

        /** {@code load.step} of a file: {@code AT,LENGTH,FACTOR}, e.g. {@code 60s,2m,3}. */
        @JsonProperty("step")
        public Builder step(String text) {
            try {
                return loadStep(text == null ? null : LoadStepOption.parse(text));
            } catch (IllegalArgumentException e) {
                throw STEP.refused(e.getMessage());
            }
        }

        /** One producer setting more, over one of the same key. */
        public Builder producerProperty(String key, String value) {
            Map<String, String> more = new LinkedHashMap<>(producerProperties);
            more.put(key, value);
            this.producerProperties = more;
            return this;
        }

        /** One consumer setting more, over one of the same key. */
        public Builder consumerProperty(String key, String value) {
            Map<String, String> more = new LinkedHashMap<>(consumerProperties);
            more.put(key, value);
            this.consumerProperties = more;
            return this;
        }

        /**
         * A quick run: {@link #QUICK_MEASURED} of measured records at the rate, after a warm-up of
         * {@link #QUICK_WARMUP} unless one is given afterwards; the counts, warm-up and steady-state
         * cut given before (a plan file's) are replaced.
         */
        @JsonIgnore
        public Builder quick() {
            this.quick = true;
            this.records = null;
            this.warmupRecords = null;
            this.warmup = null;
            this.steadyAfter = null;
            return this;
        }

        public LoadPlan build() {
            boolean isDistrict = workload == Workload.DISTRICT;
            DistrictPlan districtPlan = district != null
                    ? district.build()
                    : isDistrict ? DistrictPlan.builder().build() : null;
            List<Long> ids = detectors != null ? detectors : isDistrict ? List.of() : ProducerRun.STUDY_DETECTORS;
            double rateHz = this.rateHz != null ? this.rateHz : isDistrict ? DISTRICT_RATE_HZ : STUDY_RATE_HZ;
            int detectorCount = isDistrict && districtPlan != null ? districtPlan.detectors() : ids.size();
            long measured = records != null
                    ? records
                    : quick ? Math.round(rateHz * detectorCount * QUICK_MEASURED.toNanos() / 1e9) : STUDY_RECORDS;
            long warmupTotal = warmupRecords != null
                    ? warmupRecords
                    : ProducerRun.warmupRecordsOf(
                            warmup != null ? warmup : quick ? QUICK_WARMUP : DEFAULT_WARMUP, rateHz, detectorCount);
            Duration cut = steadyAfter != null
                    ? steadyAfter
                    : warmupTotal > 0 ? Duration.ZERO : quick ? QUICK_CUT_WITHOUT_WARMUP : CUT_WITHOUT_WARMUP;
            return new LoadPlan(
                    workload,
                    districtPlan,
                    data,
                    ids,
                    rateHz,
                    measured,
                    warmupTotal,
                    cut,
                    sloMs,
                    producerProperties,
                    consumerProperties,
                    step);
        }
    }
}
