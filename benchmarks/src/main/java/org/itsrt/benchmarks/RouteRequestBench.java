package org.itsrt.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.itsrt.producers.requests.GravityModel;
import org.itsrt.producers.requests.RequestStream;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.itsrt.records.RouteStamps;
import org.itsrt.records.RouteStampsReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The route requests' per-request work (docs/producers.md, "Route requests"; docs/records.md), one
 * request per call, on a generated district of 4,800 stations (a large PeMS district) spread over
 * 100 km x 100 km: drawing a request from the gravity model ({@code drawRequest}), writing it
 * ({@code writeRequest}), the job reading it ({@code readRequest}) and the probe reading an
 * answer's stamps ({@code readRouteStamps}). Run with {@code -prof gc} for the bytes allocated per
 * call. Building the model once for the district, the cost a producer pays at start, is
 * {@code buildModel} (single shot).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class RouteRequestBench {

    private static final int STATIONS = 4_800;
    private static final int RECORDS = 64;
    private static final long SEED = 20180301L;
    private static final Instant NOW = Instant.parse("2026-11-27T08:00:00Z");

    private List<StationMeta> district;
    private RequestStream stream;
    private RouteRequestRecord[] requests;
    private byte[][] requestBytes;
    private byte[][] routeBytes;
    private long k;
    private int next;

    /** 4,800 stations at seeded random places of a 100 km square around Los Angeles, 2 to 6 lanes. */
    static List<StationMeta> district(long seed) {
        Random random = new Random(seed);
        List<StationMeta> stations = new ArrayList<>(STATIONS);
        for (int i = 0; i < STATIONS; i++) {
            double latitude = 33.6 + random.nextDouble() * 0.9;
            double longitude = -118.7 + random.nextDouble() * 1.08;
            stations.add(new StationMeta(
                    700_000 + i,
                    405,
                    'S',
                    7,
                    "37",
                    "",
                    "1.0",
                    1.0,
                    latitude,
                    longitude,
                    0.5,
                    "ML",
                    2 + random.nextInt(5),
                    ""));
        }
        return stations;
    }

    @Setup(Level.Trial)
    public void setUp() {
        district = district(SEED);
        stream = RequestStream.of(GravityModel.of(district), SEED, 0);
        requests = new RouteRequestRecord[RECORDS];
        requestBytes = new byte[RECORDS][];
        routeBytes = new byte[RECORDS][];
        Random random = new Random(SEED);
        for (int i = 0; i < RECORDS; i++) {
            RouteRequestRecord request = stream.request(i, NOW)
                    .stamped(5_834_612_307_719L + random.nextInt(1_000_000_000), 5_834_612_207_000L);
            requests[i] = request;
            requestBytes[i] = RouteRecordJson.write(request);
            List<Long> route = new ArrayList<>();
            route.add(request.origin());
            for (int s = 0; s < 20; s++) {
                route.add(700_000L + random.nextInt(STATIONS));
            }
            route.add(request.destination());
            routeBytes[i] = RouteRecordJson.write(RouteRecord.answering(request)
                    .routed(route, 300 + random.nextDouble() * 1_800)
                    .networkVersion(random.nextInt(1_000_000))
                    .parseNs(15_000 + random.nextInt(20_000))
                    .routeNs(400_000 + random.nextInt(600_000))
                    .build());
        }
    }

    private int nextIndex() {
        int i = next;
        next = i + 1 == RECORDS ? 0 : i + 1;
        return i;
    }

    @Benchmark
    public RouteRequestRecord drawRequest() {
        return stream.request(k++, NOW);
    }

    @Benchmark
    public byte[] writeRequest() {
        return RouteRecordJson.write(requests[nextIndex()]);
    }

    @Benchmark
    public RouteRequestRecord readRequest() throws RecordFormatException {
        return RouteRecordJson.readRequest(requestBytes[nextIndex()]);
    }

    @Benchmark
    public RouteStamps readRouteStamps() throws MalformedRecordException {
        return RouteStampsReader.read(routeBytes[nextIndex()]);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public GravityModel buildModel() {
        return GravityModel.of(district);
    }
}
