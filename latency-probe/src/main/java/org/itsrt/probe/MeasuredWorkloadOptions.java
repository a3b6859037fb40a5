package org.itsrt.probe;

import org.itsrt.records.Workload;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --workload study|district} (the suite's one option, {@link
 * org.itsrt.cli.options.WorkloadOption}): what the probe measures, the study's advice on
 * {@code --topic} or the district's two streams each into a folder of its own, with the dead letters
 * of its.dead-letters counted per stream; and {@code --expect-requests N}, the district workload's
 * announced route requests.
 */
final class MeasuredWorkloadOptions {

    @Mixin
    org.itsrt.cli.options.WorkloadOption workload;

    @Option(
            names = "--expect-requests",
            defaultValue = "0",
            paramLabel = "N",
            description = "with --workload district: measured route requests the producers will send in all; "
                    + "--expect is then the readings' count (default: unknown)")
    long expectRequests;

    /** The workload chosen. */
    Workload workload() {
        return workload.chosen();
    }

    /** The study's topic ({@code --topic}, else its default) for the study; null for the district workload. */
    String topic(String studyTopic) {
        return workload() == Workload.STUDY ? studyTopic : null;
    }

    /**
     * What is wrong with these options, naming the option; null when nothing is.
     *
     * @param topicGiven whether {@code --topic} was given, which only the study takes
     */
    String problem(boolean topicGiven) {
        Workload chosen = workload();
        if (expectRequests < 0) {
            return "--expect-requests must be >= 0, got " + expectRequests;
        }
        if (chosen == Workload.STUDY && expectRequests > 0) {
            return "--expect-requests counts route requests, which only --workload district measures";
        }
        if (chosen == Workload.DISTRICT && topicGiven) {
            return "--topic is the study's topic; --workload district reads its.predictions, its.routes and "
                    + "its.dead-letters";
        }
        return null;
    }
}
