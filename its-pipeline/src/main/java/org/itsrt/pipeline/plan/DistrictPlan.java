package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.nio.file.Path;

/**
 * The district of a run of the district workload ({@code load.district}): a folder of
 * clearinghouse files (station metadata and 5-minute station files), real or generated, and the
 * route requests sent beside its readings. Without a folder the run generates one
 * ({@code ./its generate --detectors N --seed S --days D}) into a cache folder of the repository
 * and reuses it while it is there; {@link org.itsrt.pipeline.district.DistrictCache} resolves it.
 *
 * @param detectors         mainline detectors of a generated district (at least 100)
 * @param seed              the generated district's seed, and the requests' demand seed
 * @param days              days of readings of a generated district
 * @param dir               a district's folder, real or generated; null: generated into the cache
 * @param requestsPerSecond route requests per second, all streams together, open loop; 0: none, the
 *                          readings alone
 */
@JsonDeserialize(builder = DistrictPlan.Builder.class)
@JsonPropertyOrder({"detectors", "seed", "days", "dir", "requests_per_second"})
public record DistrictPlan(int detectors, long seed, int days, Path dir, double requestsPerSecond) {

    public static final PlanField DETECTORS = new PlanField("load.district.detectors", "--detectors");
    public static final PlanField SEED = new PlanField("load.district.seed", "--seed");
    public static final PlanField DAYS = new PlanField("load.district.days", null);
    public static final PlanField DIR = new PlanField("load.district.dir", null);
    public static final PlanField REQUESTS = new PlanField("load.district.requests_per_second", "--requests");

    /** The fewest detectors a generated district has (docs/import.md, "A generated district"). */
    public static final int MIN_DETECTORS = 100;

    /** A large PeMS district's size. */
    public static final int DEFAULT_DETECTORS = 4_800;

    /** The generator's own default seed. */
    public static final long DEFAULT_SEED = 42;

    public static final double DEFAULT_REQUESTS_PER_SECOND = 1_000;

    public DistrictPlan {
        DETECTORS.require(
                dir != null || detectors >= MIN_DETECTORS,
                "must be >= " + MIN_DETECTORS + " for a generated district, got " + detectors);
        DAYS.require(days >= 1, "must be >= 1, got " + days);
        REQUESTS.require(
                requestsPerSecond >= 0 && !Double.isInfinite(requestsPerSecond),
                "must be >= 0 requests/s (0: none), got " + requestsPerSecond);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().detectors(detectors).seed(seed).days(days).dir(dir).requestsPerSecond(requestsPerSecond);
    }

    /** A generated district of 4,800 detectors, seed 42, one day, 1,000 requests/s. */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private int detectors = DEFAULT_DETECTORS;
        private long seed = DEFAULT_SEED;
        private int days = 1;
        private Path dir;
        private double requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND;

        public Builder detectors(int mainline) {
            this.detectors = mainline;
            return this;
        }

        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        public Builder days(int count) {
            this.days = count;
            return this;
        }

        public Builder dir(Path folder) {
            this.dir = folder;
            return this;
        }

        public Builder requestsPerSecond(double perSecond) {
            this.requestsPerSecond = perSecond;
            return this;
        }

        public DistrictPlan build() {
            return new DistrictPlan(detectors, seed, days, dir, requestsPerSecond);
        }
    }
}
