package org.itsrt.readings.pems;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * What every PeMS file reader needs from the import it is part of.
 *
 * @param selected the stations to keep
 * @param meta     station metadata by VDS id; where a station has it, its lane count wins over
 *                 the one a data file implies
 * @param problems where bad rows and files go
 * @param sink     where readings go, in file order
 */
record ImportContext(
        LongPredicate selected, Map<Long, StationMeta> meta, InputProblems problems, Consumer<SourcedReading> sink) {

    /** The lane count for a station: from the metadata if it has the station, else from the source. */
    int lanes(long stationId, int lanesInSource) {
        StationMeta station = meta.get(stationId);
        return station != null ? station.lanes() : lanesInSource;
    }

    /**
     * The source label of a station's readings: a generated station's synthetic label, so that
     * generated readings stay labelled synthetic in the table, else {@code otherwise}.
     */
    String source(long stationId, String otherwise) {
        StationMeta station = meta.get(stationId);
        return station != null && station.isSynthetic() ? station.syntheticSource() : otherwise;
    }
}
