package org.itsrt.fuzz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;

/**
 * The route requests of a district campaign (docs/fuzz.md, "District campaign"), in the order they
 * are sent: valid requests between two stations of the routing graph (one stream, each request's
 * {@code seq} from 0, a random traveller, a departure within the hour) with one hostile or unusual
 * request after each, of every {@link RequestFault} in shuffled order. Generated from a seed, so two
 * campaigns of one size and seed send the very same bytes.
 *
 * <p>A rejected fault is the next valid request mutated, without taking its place: accepted by
 * mistake, it would answer a {@code (stream, seq)} a later valid request answers too. An accepted
 * fault is the next valid request in a form the format accepts and takes its place.
 */
public final class RequestCampaignPlan {

    /** The stream the campaign's requests carry (the producers number theirs from 0 too). */
    public static final int STREAM = 0;

    private static final Instant FIRST_REQUEST = Instant.parse("2026-11-27T08:00:00.250Z");
    private static final Duration REQUEST_EVERY = Duration.ofMillis(500);
    private static final Duration MAX_VALID_LEAD = Duration.ofHours(1);

    private final List<FuzzRequest> records;
    private final Map<RequestFault, Integer> counts;

    private RequestCampaignPlan(List<FuzzRequest> records, Map<RequestFault, Integer> counts) {
        this.records = List.copyOf(records);
        this.counts = Collections.unmodifiableMap(new EnumMap<>(counts));
    }

    /**
     * @param records  hostile or unusual requests, and as many valid ones
     * @param stations the routing graph's stations: the requests' origins and destinations
     */
    public static RequestCampaignPlan generate(int records, long[] stations, long seed) {
        if (records < RequestFault.values().length) {
            throw new IllegalArgumentException("--records must be at least " + RequestFault.values().length
                    + " (one request of each fault) for --workload district, got " + records);
        }
        if (stations.length < 2) {
            throw new IllegalArgumentException(
                    "the routing graph has " + stations.length + " stations; a route request needs two");
        }
        Map<RequestFault, Integer> counts = allocate(records);
        List<RequestFault> faults = new ArrayList<>(records);
        counts.forEach((fault, n) -> faults.addAll(Collections.nCopies(n, fault)));
        Random random = new Random(seed);
        Collections.shuffle(faults, random);
        long[] sorted = stations.clone();
        Arrays.sort(sorted);
        Generator generator = new Generator(sorted, random);
        List<FuzzRequest> sequence = new ArrayList<>(2 * records);
        for (int i = 0; i < records; i++) {
            sequence.add(generator.valid());
            sequence.add(generator.fuzz(faults.get(i)));
        }
        return new RequestCampaignPlan(sequence, counts);
    }

    /** How many of each fault: as {@link CampaignPlan#allocate}, large ones one per thousand. */
    static Map<RequestFault, Integer> allocate(int records) {
        Map<RequestFault, Integer> counts = new EnumMap<>(RequestFault.class);
        List<RequestFault> small = new ArrayList<>();
        int left = records;
        for (RequestFault fault : RequestFault.values()) {
            if (fault.large()) {
                int n = Math.max(1, records / 1000);
                counts.put(fault, n);
                left -= n;
            } else {
                small.add(fault);
            }
        }
        for (int i = 0; i < small.size(); i++) {
            counts.put(small.get(i), left / small.size() + (i < left % small.size() ? 1 : 0));
        }
        return counts;
    }

    /** Every request of the campaign, in send order. */
    public List<FuzzRequest> records() {
        return records;
    }

    /** The requests the job must answer, in send order: what a clean run sends. */
    public List<FuzzRequest> answered() {
        return records.stream().filter(FuzzRequest::answered).toList();
    }

    /** Requests per fault, valid requests not counted. */
    public Map<RequestFault, Integer> counts() {
        return counts;
    }

    /** Plain valid requests. */
    public long validRequests() {
        return records.stream().filter(r -> r.fault() == null).count();
    }

    /** The largest value, for the producer's and the topic's size limits. */
    public int largestValue() {
        return records.stream().mapToInt(FuzzRequest::size).max().orElse(0);
    }

    /** Builds the valid requests and the faults derived from them. */
    private static final class Generator {
        private final long[] stations;
        private final Random random;
        private long nextSeq;

        Generator(long[] stations, Random random) {
            this.stations = stations;
            this.random = random;
        }

        FuzzRequest valid() {
            RouteRequestRecord r = nextRequest(true);
            return new FuzzRequest(null, key(r.traveller()), RouteRecordJson.write(r), r.stream(), r.seq());
        }

        FuzzRequest fuzz(RequestFault fault) {
            RouteRequestRecord r = nextRequest(fault.accepted());
            byte[] value = fault.mutate(new RequestFault.Draft(r, stations, random));
            if (!fault.accepted()) {
                return new FuzzRequest(fault, key(r.traveller()), value, 0, -1);
            }
            // Keyed by the traveller the record names, as the producers key requests.
            RouteRequestRecord sent;
            try {
                sent = RouteRecordJson.readRequest(value);
            } catch (RecordFormatException e) {
                throw new IllegalStateException(fault + " must be accepted, but " + e.getMessage(), e);
            }
            return new FuzzRequest(fault, key(sent.traveller()), value, sent.stream(), sent.seq());
        }

        /**
         * The next request: a random traveller between two distinct random stations, leaving within
         * the hour; {@code advance} false leaves its seq to the next request (a fault to reject).
         */
        private RouteRequestRecord nextRequest(boolean advance) {
            int from = random.nextInt(stations.length);
            int to = random.nextInt(stations.length - 1);
            if (to >= from) {
                to++;
            }
            Instant requestedAt = FIRST_REQUEST.plus(REQUEST_EVERY.multipliedBy(nextSeq));
            RouteRequestRecord r = RouteRequestRecord.builder()
                    .traveller(1 + random.nextInt(999_999))
                    .origin(stations[from])
                    .destination(stations[to])
                    .departure(requestedAt.plusSeconds(random.nextInt((int) MAX_VALID_LEAD.toSeconds())))
                    .requestedAt(requestedAt)
                    .stream(STREAM)
                    .seq(nextSeq)
                    .sentNs(1_000_000_000L + nextSeq * 1_000_000L + 50_000)
                    .intendedNs(1_000_000_000L + nextSeq * 1_000_000L)
                    .build();
            if (advance) {
                nextSeq++;
            }
            return r;
        }

        private static byte[] key(long traveller) {
            return Long.toString(traveller).getBytes(StandardCharsets.US_ASCII);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d route requests (%,d valid)", records.size(), validRequests());
    }
}
