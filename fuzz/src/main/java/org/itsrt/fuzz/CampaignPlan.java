package org.itsrt.fuzz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;

/**
 * The records of one campaign, in the order they are sent: valid readings of the routing graph's
 * detectors (round robin, each detector's {@code seq} from 0, a plausible 12-reading window) with
 * one hostile or unusual record after each, of every {@link FuzzKind} in shuffled order. Generated
 * from a seed, so two campaigns of one size and seed send the very same bytes.
 *
 * <p>A record of an accepted kind is a detector's next reading in a form the format accepts, and
 * takes that reading's place; every other kind is built so that, were the job to accept it, it
 * would differ from the readings the clean run sees (a reading with other flows, or a {@code seq}
 * a later valid reading uses), and the comparison would show it.
 */
public final class CampaignPlan {

    /** The seed of {@code ./its fuzz} unless {@code --seed} says otherwise. */
    public static final long DEFAULT_SEED = 20_180_305L;

    private static final Instant FIRST_INTERVAL = Instant.parse("2018-03-05T06:00:00Z");
    private static final Duration INTERVAL = Duration.ofMinutes(5);

    /** A send time about 146 years after the clock's zero: far beyond any the producers stamp. */
    static final long FUTURE_SENT_NS = Long.MAX_VALUE / 2;

    private static final int LARGE_RECORD_BYTES = 900 * 1024;
    private static final int HUGE_ARRAY_LENGTH = 100_000;
    private static final int NESTING_LEVELS = 100_000;

    private final List<FuzzRecord> warmup;
    private final List<FuzzRecord> records;
    private final Map<FuzzKind, Integer> counts;

    private CampaignPlan(List<FuzzRecord> warmup, List<FuzzRecord> records, Map<FuzzKind, Integer> counts) {
        this.warmup = List.copyOf(warmup);
        this.records = List.copyOf(records);
        this.counts = Collections.unmodifiableMap(new EnumMap<>(counts));
    }

    /**
     * @param records   hostile or unusual records, and as many valid readings
     * @param detectors the routing graph's detectors: the readings' stations
     */
    public static CampaignPlan generate(int records, long[] detectors, long seed) {
        return generate(records, detectors, seed, 0);
    }

    /**
     * As {@link #generate(int, long[], long)}, after {@code warmupReadings} valid readings flagged
     * as warm-up records ({@code "warmup":true}) that come first in both runs: the detectors' first
     * readings, seq from 0, so the campaign's readings go on from them. With none, the campaign is
     * the very one the same size and seed always gave.
     */
    public static CampaignPlan generate(int records, long[] detectors, long seed, int warmupReadings) {
        if (warmupReadings < 0) {
            throw new IllegalArgumentException("the warm-up must be >= 0 readings, got " + warmupReadings);
        }
        if (records < FuzzKind.values().length) {
            throw new IllegalArgumentException("--records must be at least " + FuzzKind.values().length
                    + " (one record of each kind), got " + records);
        }
        if (detectors.length == 0) {
            throw new IllegalArgumentException("the routing graph has no detectors");
        }
        Map<FuzzKind, Integer> counts = allocate(records);
        List<FuzzKind> kinds = new ArrayList<>(records);
        counts.forEach((kind, n) -> kinds.addAll(Collections.nCopies(n, kind)));
        Random random = new Random(seed);
        Collections.shuffle(kinds, random);
        Generator generator = new Generator(detectors, random);
        List<FuzzRecord> warmup = new ArrayList<>(warmupReadings);
        for (int i = 0; i < warmupReadings; i++) {
            warmup.add(generator.warmup());
        }
        List<FuzzRecord> sequence = new ArrayList<>(2 * records);
        for (int i = 0; i < records; i++) {
            sequence.add(generator.valid());
            sequence.add(generator.fuzz(kinds.get(i)));
        }
        return new CampaignPlan(warmup, sequence, counts);
    }

    /**
     * How many of each kind: the large kinds one per thousand (at least one), the others an
     * even share of the rest, the first kinds one more where it does not divide.
     */
    static Map<FuzzKind, Integer> allocate(int records) {
        Map<FuzzKind, Integer> counts = new EnumMap<>(FuzzKind.class);
        List<FuzzKind> small = new ArrayList<>();
        int left = records;
        for (FuzzKind kind : FuzzKind.values()) {
            if (kind.large()) {
                int n = Math.max(1, records / 1000);
                counts.put(kind, n);
                left -= n;
            } else {
                small.add(kind);
            }
        }
        for (int i = 0; i < small.size(); i++) {
            counts.put(small.get(i), left / small.size() + (i < left % small.size() ? 1 : 0));
        }
        return counts;
    }

    /**
     * The warm-up: valid readings flagged as such, sent in lockstep before the campaign in both
     * runs; their advice is flagged too and left out of the comparison and every count.
     */
    public List<FuzzRecord> warmup() {
        return warmup;
    }

    /** Every record of the campaign, in send order (the warm-up not among them). */
    public List<FuzzRecord> records() {
        return records;
    }

    /** The records the job must advise, in send order: what a clean run sends. */
    public List<FuzzRecord> advised() {
        return records.stream().filter(FuzzRecord::advised).toList();
    }

    /** Records per kind, valid readings not counted. */
    public Map<FuzzKind, Integer> counts() {
        return counts;
    }

    /** Plain valid readings. */
    public long validReadings() {
        return records.stream().filter(r -> r.kind() == null).count();
    }

    /** The largest value, for the producer's and the topic's size limits. */
    public int largestValue() {
        return records.stream().mapToInt(FuzzRecord::size).max().orElse(0);
    }

    /** Builds the readings and the records derived from them. */
    private static final class Generator {
        private final long[] detectors;
        private final Random random;
        /** Per detector: the next seq a reading gets. */
        private final Map<Long, Long> nextSeq = new HashMap<>();
        /** Per detector: its flow series so far, so that windows overlap as real ones do. */
        private final Map<Long, List<Double>> flows = new HashMap<>();

        private final Map<Long, List<Double>> speeds = new HashMap<>();
        private long readings;
        /** The newest reading a campaign sends as valid; a valid reading always comes first. */
        private ReadingRecord lastAccepted;

        Generator(long[] detectors, Random random) {
            this.detectors = detectors.clone();
            Arrays.sort(this.detectors);
            this.random = random;
        }

        /** A valid reading flagged as a warm-up record. */
        FuzzRecord warmup() {
            ReadingRecord r = nextReading(true).withWarmup(true);
            return advised(null, r, RecordJson.write(r));
        }

        FuzzRecord valid() {
            ReadingRecord r = nextReading(true);
            return advised(null, r, RecordJson.write(r));
        }

        FuzzRecord fuzz(FuzzKind kind) {
            return switch (kind) {
                case EXTRA_FIELDS -> {
                    ReadingRecord r = nextReading(true);
                    String json = text(r);
                    yield advised(
                            kind,
                            r,
                            utf8(
                                    json.substring(0, json.length() - 1)
                                            + ",\"lane_count\":4,\"source\":{\"agency\":\"caltrans\",\"tags\":[\"ml\",null]}}"));
                }
                case FUTURE_SEND_TIME -> {
                    ReadingRecord r = nextReading(true);
                    ReadingRecord future = new ReadingRecord(
                            r.detector(), r.ts(), r.flow(), r.speed(), r.seq(), FUTURE_SENT_NS, FUTURE_SENT_NS - 1);
                    yield advised(kind, future, RecordJson.write(future));
                }
                default -> rejected(kind);
            };
        }

        private FuzzRecord rejected(FuzzKind kind) {
            // A reading with the seq the detector's next valid reading will carry: accepted by
            // mistake, it would take that reading's place and the comparison would show it.
            ReadingRecord r = nextReading(false);
            String json = text(r);
            byte[] key = key(r.detector());
            byte[] value =
                    switch (kind) {
                        case NOT_JSON ->
                            utf8("detector " + r.detector() + ", flow " + (long) r.flow()[11] + ", seq " + r.seq());
                        case TRUNCATED_JSON -> utf8(truncated(json));
                        case BINARY_GARBAGE -> garbage();
                        case INVALID_UTF8 -> invalidUtf8(json);
                        case EMPTY_VALUE -> new byte[0];
                        case NULL_VALUE -> null;
                        case RECORD_900KB -> padded(json, LARGE_RECORD_BYTES);
                        case ARRAY_100K ->
                            utf8(json.replaceFirst(
                                    "\"flow\":\\[[^]]*]", "\"flow\":[" + "1,".repeat(HUGE_ARRAY_LENGTH - 1) + "1]"));
                        case NESTED_100K ->
                            utf8("{\"v\":1,\"detector\":" + r.detector() + ",\"x\":" + "[".repeat(NESTING_LEVELS)
                                    + "]".repeat(NESTING_LEVELS) + "}");
                        case NAN -> utf8(json.replaceFirst("\"flow\":\\[[0-9.]+", "\"flow\":[NaN"));
                        case INFINITY -> utf8(json.replaceFirst("[0-9.]+],\"seq\"", "Infinity],\"seq\""));
                        case HUGE_NUMBER -> utf8(json.replaceFirst("\"flow\":\\[[0-9.]+", "\"flow\":[1e308"));
                        case NEGATIVE -> utf8(json.replaceFirst("\"flow\":\\[[0-9.]+", "\"flow\":[-17"));
                        case ABSURD -> utf8(json.replaceFirst("[0-9.]+],\"seq\"", "5000],\"seq\""));
                        case WRONG_TYPE ->
                            utf8(json.replace("\"detector\":" + r.detector(), "\"detector\":\"" + r.detector() + "\""));
                        case MISSING_FIELD -> utf8(json.replace(",\"seq\":" + r.seq(), ""));
                        case DUPLICATE_KEY ->
                            utf8(json.replace(
                                    "\"seq\":" + r.seq(), "\"seq\":" + r.seq() + ",\"seq\":" + (r.seq() + 1)));
                        case UNKNOWN_DETECTOR -> {
                            long stranger = unknownDetector();
                            key = key(stranger);
                            yield utf8(json.replace("\"detector\":" + r.detector(), "\"detector\":" + stranger));
                        }
                        case WRONG_VERSION -> utf8(json.replace("\"v\":1", "\"v\":2"));
                        case SEQ_BACKWARDS -> seqBackwards();
                        case EXTRA_FIELDS, FUTURE_SEND_TIME -> throw new IllegalStateException(kind + " is accepted");
                    };
            return new FuzzRecord(kind, key, value, 0, 0);
        }

        /**
         * The last accepted reading again, with other flows and its own seq or one below it: a
         * replay, or a producer that restarted its count.
         */
        private byte[] seqBackwards() {
            ReadingRecord fresh = lastAccepted;
            long last = fresh.seq();
            long seq = last - random.nextInt((int) Math.min(last, 2) + 1);
            double[] flow = fresh.flow().clone();
            flow[11] = Math.min(RecordJson.MAX_FLOW, flow[11] + 250);
            return RecordJson.write(new ReadingRecord(
                    fresh.detector(), fresh.ts(), flow, fresh.speed(), seq, fresh.sentNs(), fresh.intendedNs()));
        }

        private long unknownDetector() {
            long id;
            do {
                id = random.nextBoolean() ? Long.MAX_VALUE - random.nextInt(1000) : 100_000 + random.nextInt(900_000);
            } while (Arrays.binarySearch(detectors, id) >= 0);
            return id;
        }

        /** Cut right after a comma, so the record always ends inside its object. */
        private String truncated(String json) {
            List<Integer> commas = new ArrayList<>();
            for (int i = 0; i < json.length(); i++) {
                if (json.charAt(i) == ',') {
                    commas.add(i + 1);
                }
            }
            return json.substring(0, commas.get(random.nextInt(commas.size())));
        }

        /** Random bytes after a 0xFF, a byte UTF-8 never has. */
        private byte[] garbage() {
            byte[] bytes = new byte[1 + random.nextInt(4096)];
            random.nextBytes(bytes);
            bytes[0] = (byte) 0xFF;
            return bytes;
        }

        private static byte[] invalidUtf8(String json) {
            byte[] bytes = utf8(json);
            int ts = json.indexOf("\"ts\":\"") + "\"ts\":\"".length();
            bytes[ts] = (byte) 0xC3;
            bytes[ts + 1] = (byte) 0x28;
            return bytes;
        }

        private static byte[] padded(String json, int size) {
            String head = json.substring(0, json.length() - 1) + ",\"pad\":\"";
            return utf8(head + "x".repeat(Math.max(0, size - head.length() - 2)) + "\"}");
        }

        /**
         * The next reading of the next detector in turn; {@code advance} false leaves the
         * detector's seq and series as they were (a record that must be rejected).
         */
        private ReadingRecord nextReading(boolean advance) {
            long detector = detectors[(int) (readings % detectors.length)];
            long round = readings / detectors.length;
            long seq = nextSeq.getOrDefault(detector, 0L);
            List<Double> flow = flows.computeIfAbsent(detector, d -> startSeries(200 + random.nextInt(400), 0));
            List<Double> speed = speeds.computeIfAbsent(detector, d -> startSeries(55 + random.nextInt(10), 1));
            double nextFlow = clamp(flow.get(flow.size() - 1) + random.nextGaussian() * 25, 20, 1_500);
            double nextSpeed = clamp(speed.get(speed.size() - 1) + random.nextGaussian() * 2, 15, 80);
            double[] flowWindow = window(flow, nextFlow, 0);
            double[] speedWindow = window(speed, Math.round(nextSpeed * 10) / 10.0, 1);
            long intendedNs = 1_000_000_000L + readings * 1_000_000L;
            ReadingRecord r = new ReadingRecord(
                    detector,
                    FIRST_INTERVAL.plus(INTERVAL.multipliedBy(round)),
                    flowWindow,
                    speedWindow,
                    seq,
                    intendedNs + 50_000,
                    intendedNs);
            if (advance) {
                flow.add(flowWindow[11]);
                speed.add(speedWindow[11]);
                nextSeq.put(detector, seq + 1);
                readings++;
                lastAccepted = r;
            }
            return r;
        }

        private List<Double> startSeries(double level, int decimals) {
            List<Double> series = new ArrayList<>();
            for (int i = 0; i < ReadingRecord.WINDOW - 1; i++) {
                series.add(round(level + random.nextGaussian() * 10, decimals));
            }
            return series;
        }

        private static double[] window(List<Double> series, double next, int decimals) {
            double[] w = new double[ReadingRecord.WINDOW];
            int from = series.size() - (ReadingRecord.WINDOW - 1);
            for (int i = 0; i < ReadingRecord.WINDOW - 1; i++) {
                w[i] = series.get(from + i);
            }
            w[ReadingRecord.WINDOW - 1] = round(next, decimals);
            return w;
        }

        private static double round(double value, int decimals) {
            double scale = Math.pow(10, decimals);
            return Math.round(value * scale) / scale;
        }

        private static double clamp(double value, double min, double max) {
            return Math.max(min, Math.min(max, value));
        }

        private static FuzzRecord advised(FuzzKind kind, ReadingRecord r, byte[] value) {
            return new FuzzRecord(kind, key(r.detector()), value, r.detector(), r.seq());
        }

        private static byte[] key(long detector) {
            return Long.toString(detector).getBytes(StandardCharsets.US_ASCII);
        }

        private static String text(ReadingRecord r) {
            return new String(RecordJson.write(r), StandardCharsets.UTF_8);
        }

        private static byte[] utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d records (%,d valid readings)", records.size(), validReadings());
    }
}
