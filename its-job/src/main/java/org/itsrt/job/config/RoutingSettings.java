package org.itsrt.job.config;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.itsrt.readings.BadInputException;
import org.itsrt.records.Workload;
import org.itsrt.routing.Router;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.DistrictGraph;
import org.itsrt.routing.graph.MetaGraphBuilder;
import org.itsrt.routing.graph.StudyNetwork;

/**
 * The route the job advises and the graph it routes over: the study network, or the stations of a
 * PeMS metadata file. Checked as a whole when read: both ends in the graph and the destination
 * reachable from the origin. The graph's detector ids are derived once here, so that the
 * TaskManagers need not read the file to reject readings of other detectors (and, in the district
 * workload, requests between other stations).
 *
 * <p>The district workload has no fixed query ({@link #forRequests}): its origin and destination
 * are 0, and giving {@code --origin} or {@code --destination} with it is an error rather than a
 * setting silently ignored.
 *
 * @param origin      the study's query start; 0 without a fixed query
 * @param destination the study's query goal; 0 without a fixed query
 * @param graphMeta   the PeMS metadata file as given; null for the study network
 * @param detectorIds VDS ids of the graph's detectors, sorted
 */
public record RoutingSettings(long origin, long destination, String graphMeta, long[] detectorIds)
        implements Serializable {

    public RoutingSettings {
        detectorIds = detectorIds.clone();
        Arrays.sort(detectorIds);
    }

    static RoutingSettings from(Map<String, String> options) {
        if (JobOptions.WORKLOAD.read(options) == Workload.DISTRICT) {
            for (JobOption<Long> query : List.of(JobOptions.ORIGIN, JobOptions.DESTINATION)) {
                if (options.containsKey(query.name())) {
                    throw new JobSettingsException(
                            query.flag(),
                            "the study workload's fixed query; --workload district answers route requests instead "
                                    + "(leave it out)");
                }
            }
            return forRequests(JobOptions.GRAPH_META.read(options));
        }
        return of(
                JobOptions.ORIGIN.read(options),
                JobOptions.DESTINATION.read(options),
                JobOptions.GRAPH_META.read(options));
    }

    /**
     * Checks the query against its graph and derives the graph's detectors.
     *
     * @param graphMeta a PeMS station metadata file, or null for the study network
     * @throws JobSettingsException naming the option (and the file) that cannot be used
     */
    public static RoutingSettings of(long origin, long destination, String graphMeta) {
        DetectorGraph graph = loadGraph(graphMeta);
        String where = graphMeta == null
                ? "the study network"
                : "the graph of " + Path.of(graphMeta).toAbsolutePath();
        if (!graph.contains(origin)) {
            throw new JobSettingsException(JobOptions.ORIGIN.flag(), "detector " + origin + " is not in " + where);
        }
        String destinationOption = JobOptions.DESTINATION.flag();
        if (!graph.contains(destination)) {
            throw new JobSettingsException(destinationOption, "detector " + destination + " is not in " + where);
        }
        // Costs are always finite, so whether a route exists depends on the graph alone: check
        // once here instead of writing an unreachable (infinite-cost) route on every record.
        if (!Router.withDefaults(graph).route(origin, destination).isReachable()) {
            throw new JobSettingsException(
                    destinationOption,
                    "detector " + destination + " cannot be reached from " + JobOptions.ORIGIN.flag() + " " + origin
                            + " in " + where);
        }
        return new RoutingSettings(
                origin,
                destination,
                graphMeta,
                graph.detectors().stream().mapToLong(Detector::vdsId).toArray());
    }

    /**
     * The graph alone, for answering requests between any of its stations: no fixed query. A
     * district's graph must be connected ({@link DistrictGraph#requireConnected}): a station no
     * route reaches would answer every request to it with "unreachable", so it is refused here,
     * before the job starts, naming the stations at fault.
     *
     * @param graphMeta a PeMS station metadata file, or null for the study network
     * @throws JobSettingsException naming {@code --graph-meta} and the file when it cannot be read
     *                              or its graph is not connected
     */
    public static RoutingSettings forRequests(String graphMeta) {
        DetectorGraph graph = loadGraph(graphMeta);
        if (graphMeta != null) {
            try {
                DistrictGraph.requireConnected(
                        graph, Path.of(graphMeta).toAbsolutePath().toString());
            } catch (BadInputException e) {
                throw new JobSettingsException(JobOptions.GRAPH_META.flag(), e.getMessage(), e);
            }
        }
        return new RoutingSettings(
                0,
                0,
                graphMeta,
                graph.detectors().stream().mapToLong(Detector::vdsId).toArray());
    }

    /** Whether these settings hold the study's origin-destination query. */
    public boolean hasFixedQuery() {
        return origin != 0;
    }

    @Override
    public long[] detectorIds() {
        return detectorIds.clone();
    }

    /** Whether the graph has this detector. */
    public boolean hasDetector(long vdsId) {
        return Arrays.binarySearch(detectorIds, vdsId) >= 0;
    }

    /**
     * Builds the routing graph: the study network, or the graph of {@link #graphMeta()}.
     *
     * @throws JobSettingsException naming {@code --graph-meta} and the file when it cannot be read
     */
    public DetectorGraph graph() {
        return loadGraph(graphMeta);
    }

    private static DetectorGraph loadGraph(String graphMeta) {
        if (graphMeta == null) {
            return StudyNetwork.build();
        }
        String option = JobOptions.GRAPH_META.flag();
        Path file = Path.of(graphMeta);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new JobSettingsException(option, file.toAbsolutePath() + " is not a readable file");
        }
        DetectorGraph graph;
        try {
            graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(file);
        } catch (IOException | RuntimeException e) {
            throw new JobSettingsException(
                    option, file.toAbsolutePath() + ": not a usable PeMS station metadata file: " + e.getMessage(), e);
        }
        if (graph.detectors().isEmpty()) {
            throw new JobSettingsException(
                    option,
                    file.toAbsolutePath()
                            + ": no mainline station with coordinates, postmile and lanes; nothing to route over");
        }
        return graph;
    }
}
