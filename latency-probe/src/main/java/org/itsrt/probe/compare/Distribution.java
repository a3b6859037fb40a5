package org.itsrt.probe.compare;

import org.itsrt.probe.report.Ecdf;

/**
 * One row of a comparison: a run's or a study configuration's latency distribution, in ms.
 *
 * @param label       row name, e.g. {@code study RTDS 100000/100000} or a run folder's name
 * @param source      the file or folder it was read from
 * @param latency     which latency it is, in words
 * @param percentiles how its percentiles were computed, in words
 * @param sloRatio    the SLO-violation ratio, NaN where there is none
 * @param sloNote     why there is no ratio, or where it came from
 * @param ecdf        its ECDF for the overlay plots
 */
public record Distribution(
        String label,
        String source,
        String latency,
        long count,
        double minMs,
        double p50Ms,
        double p90Ms,
        double p99Ms,
        double p999Ms,
        double maxMs,
        String percentiles,
        double sloRatio,
        String sloNote,
        Ecdf ecdf) {

    /** The same distribution under another row name. */
    public Distribution withLabel(String newLabel) {
        return new Distribution(
                newLabel,
                source,
                latency,
                count,
                minMs,
                p50Ms,
                p90Ms,
                p99Ms,
                p999Ms,
                maxMs,
                percentiles,
                sloRatio,
                sloNote,
                new Ecdf(newLabel, ecdf.xMs(), ecdf.fraction()));
    }
}
