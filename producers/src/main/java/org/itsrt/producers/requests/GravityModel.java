package org.itsrt.producers.requests;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.routing.graph.GreatCircle;

/**
 * Where travellers go: a gravity model over a district's stations (docs/producers.md, "Route
 * requests"). The probability of the pair (o, d), o != d, is proportional to
 *
 * <pre>lanes(o) x lanes(d) x exp(-distance(o, d) / L)</pre>
 *
 * with the great-circle distance of {@link GreatCircle} (the distance the routing graph's A*
 * measures) and a deterrence length L ({@link #DEFAULT_DETERRENCE_M}: 10 km unless given). Lanes
 * stand for a station's size, as population and jobs do in a zone model: a five-lane freeway
 * carries more trips than a two-lane one. The exponential makes short trips likelier than long
 * ones: a pair 10 km apart is e (2.7) times likelier than one 20 km apart, other things equal.
 *
 * <p>Sampled in two steps, both by binary search over cumulative weights, O(log n) per pair: the
 * origin by its share of all weight (the sum of its row), then the destination by its weight in
 * the origin's row. Each row's cumulative weights are normalized and kept as floats, 4 bytes per
 * pair: about 16 MB for 2,000 stations, 92 MB for 4,800 (a large PeMS district); a float keeps a
 * pair's probability to 1e-7 of the row, far below what any test or run can tell. A table over
 * the n(n-1) pairs, alias or cumulative, would hold 8 to 12 bytes a pair and gain nothing but the
 * log n steps. Sampling reads the tables only, so one model serves any number of threads.
 *
 * <p>The samplers take their uniform numbers as arguments: {@link RequestStream} derives them
 * from (seed, stream, k), which makes the k-th request of a stream a function of those alone,
 * without a generator's state. That is why this is not a library sampler (Commons RNG's alias
 * sampler, Commons Math's enumerated distribution), which draws from its generator's sequence.
 */
public final class GravityModel {

    /** The deterrence length L unless one is given: a trip 10 km longer is e times less likely. */
    public static final double DEFAULT_DETERRENCE_M = 10_000;

    private final long[] stations;
    private final int[] lanes;
    private final double[] latitude;
    private final double[] longitude;
    private final double deterrenceM;
    /** Cumulative share of the total weight of the origins up to and including each, ending at 1. */
    private final double[] originCumulative;
    /** Per origin, the cumulative weight of the destinations up to each, normalized to end at 1. */
    private final float[][] destinationCumulative;
    /** Per origin, its row's total weight, for {@link #probability}. */
    private final double[] rowWeight;

    private final double totalWeight;

    private GravityModel(long[] stations, int[] lanes, double[] latitude, double[] longitude, double deterrenceM) {
        int n = stations.length;
        this.stations = stations;
        this.lanes = lanes;
        this.latitude = latitude;
        this.longitude = longitude;
        this.deterrenceM = deterrenceM;
        this.destinationCumulative = new float[n][];
        this.rowWeight = new double[n];
        double[] row = new double[n];
        double total = 0;
        for (int o = 0; o < n; o++) {
            double sum = 0;
            for (int d = 0; d < n; d++) {
                row[d] = d == o ? 0 : weight(o, d);
                sum += row[d];
            }
            float[] cumulative = new float[n];
            double running = 0;
            for (int d = 0; d < n; d++) {
                running += row[d];
                // The last positive entry is exactly 1, so a uniform in [0, 1) always finds one.
                cumulative[d] = sum > 0 ? (float) (running / sum) : 0f;
            }
            destinationCumulative[o] = cumulative;
            rowWeight[o] = sum;
            total += sum;
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("gravity model: every pair's weight is 0: the stations lie more than "
                    + "about 745 x the deterrence length (" + deterrenceM
                    + " m) apart; give a larger deterrence length");
        }
        this.totalWeight = total;
        this.originCumulative = new double[n];
        double running = 0;
        for (int o = 0; o < n; o++) {
            running += rowWeight[o];
            originCumulative[o] = running / total;
        }
    }

    /** A model with {@link #DEFAULT_DETERRENCE_M}. */
    public static GravityModel of(Collection<StationMeta> stations) {
        return of(stations, DEFAULT_DETERRENCE_M);
    }

    /**
     * A model over {@code stations}: the stations requests may name, which should be those of the
     * job's routing graph (a request naming another is dead-lettered as {@code unknown station}).
     *
     * @param deterrenceM the deterrence length L in meters, positive and finite
     * @throws IllegalArgumentException naming what is wrong: fewer than 2 stations, a station
     *                                  without lanes or without coordinates, a station listed
     *                                  twice, a deterrence length that is not positive
     */
    public static GravityModel of(Collection<StationMeta> stations, double deterrenceM) {
        if (!(deterrenceM > 0) || Double.isInfinite(deterrenceM)) {
            throw new IllegalArgumentException(
                    "gravity model: deterrence length must be a positive number of meters, got " + deterrenceM);
        }
        if (stations.size() < 2) {
            throw new IllegalArgumentException("gravity model: needs at least 2 stations (a trip has an origin "
                    + "and another destination), got " + stations.size());
        }
        int n = stations.size();
        long[] ids = new long[n];
        int[] lanes = new int[n];
        double[] latitude = new double[n];
        double[] longitude = new double[n];
        Set<Long> seen = new HashSet<>();
        int i = 0;
        for (StationMeta station : stations) {
            if (!seen.add(station.id())) {
                throw new IllegalArgumentException("gravity model: station " + station.id() + " is listed twice");
            }
            if (station.lanes() < 1) {
                throw new IllegalArgumentException("gravity model: station " + station.id() + " has " + station.lanes()
                        + " lanes, expected at least 1 (lanes weigh a station's trips)");
            }
            if (!Double.isFinite(station.latitude()) || !Double.isFinite(station.longitude())) {
                throw new IllegalArgumentException("gravity model: station " + station.id()
                        + " has no coordinates (latitude " + station.latitude() + ", longitude "
                        + station.longitude() + "); leave unlocated stations out, as the routing graph does");
            }
            ids[i] = station.id();
            lanes[i] = station.lanes();
            latitude[i] = station.latitude();
            longitude[i] = station.longitude();
            i++;
        }
        return new GravityModel(ids, lanes, latitude, longitude, deterrenceM);
    }

    private double weight(int o, int d) {
        double meters = GreatCircle.meters(latitude[o], longitude[o], latitude[d], longitude[d]);
        return (double) lanes[o] * lanes[d] * Math.exp(-meters / deterrenceM);
    }

    /** The number of stations. */
    public int size() {
        return stations.length;
    }

    /** The VDS id of the station at {@code index} (0 .. size-1, in the order given). */
    public long station(int index) {
        return stations[index];
    }

    public double deterrenceM() {
        return deterrenceM;
    }

    /**
     * The origin for a uniform number in [0, 1): the index of a station, each with the probability
     * of its share of all pairs' weight.
     */
    public int sampleOrigin(double uniform) {
        return firstAbove(originCumulative, uniform);
    }

    /**
     * The destination of a trip from {@code origin} (an index) for a uniform number in [0, 1):
     * the index of a station other than the origin, with its weight's share of the origin's row.
     */
    public int sampleDestination(int origin, double uniform) {
        float[] cumulative = destinationCumulative[origin];
        int low = 0;
        int high = cumulative.length - 1;
        // The first index whose cumulative weight exceeds the uniform. The origin's own entry has
        // zero width (it equals its predecessor's), so the search never stops on it.
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (uniform < cumulative[mid]) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /**
     * The model's probability of the pair (indices), computed afresh from its weight in double
     * precision, not from the sampling tables: what the samplers should draw. 0 for o = d.
     */
    public double probability(int origin, int destination) {
        return origin == destination ? 0 : weight(origin, destination) / totalWeight;
    }

    private static int firstAbove(double[] cumulative, double uniform) {
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (uniform < cumulative[mid]) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
