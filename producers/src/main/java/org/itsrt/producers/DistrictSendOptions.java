package org.itsrt.producers;

import java.nio.file.Path;
import java.util.List;
import org.itsrt.cli.options.RequestsOption;
import org.itsrt.cli.options.SeedOption;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What {@code ./its produce} sends of a district: the readings of every detector of {@code --data}
 * (no list of thousands of ids) and, with {@code --requests R}, route requests drawn from the
 * district's stations (docs/producers.md, "Route requests").
 */
final class DistrictSendOptions {

    /** The requests' seed unless given: the generator's default, so a generated district's requests repeat. */
    static final long DEFAULT_SEED = 42;

    @Option(
            names = "--district",
            paramLabel = "META",
            description = "a district's station metadata file (dNN_text_meta_*.txt): replay every detector of "
                    + "--data instead of --detectors, and draw --requests from its stations")
    Path meta;

    @Mixin
    RequestsOption requests;

    @Mixin
    SeedOption seed;

    /**
     * The detectors to replay: every detector of the table with {@code --district}, else the ids
     * given, else the study's six.
     *
     * @throws ProducerRun.InvalidPlan naming {@code --detectors} when both are given
     */
    List<Long> detectors(List<Long> ids) {
        if (meta == null) {
            return ids != null ? ids : ProducerRun.STUDY_DETECTORS;
        }
        if (ids != null) {
            throw new ProducerRun.InvalidPlan(
                    "--detectors", "names detectors; with --district every detector of --data is replayed");
        }
        return ProducerRun.EVERY_DETECTOR;
    }

    /**
     * The route requests to send beside the readings, null without {@code --requests}.
     *
     * @throws ProducerRun.InvalidPlan naming {@code --requests} without {@code --district}
     */
    ProducerRun.Requests requests() {
        if (requests.given() == null) {
            return null;
        }
        if (meta == null) {
            throw new ProducerRun.InvalidPlan("--requests", "needs --district META, the stations requests go between");
        }
        return ProducerRun.Requests.of(meta, requests.given(), seed.orElse(DEFAULT_SEED));
    }
}
