package org.itsrt.probe.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.probe.arrival.MalformedRecord;

/** Records that could not be measured, counted by reason, with the first few kept as examples. */
public final class MalformedCounts {

    /** Examples a report shows. */
    public static final int EXAMPLES = 5;

    private final Map<String, Long> byReason = new TreeMap<>();
    private final List<MalformedRecord> examples = new ArrayList<>();
    private long total;

    public void add(MalformedRecord record) {
        total++;
        byReason.merge(record.reason(), 1L, Long::sum);
        if (examples.size() < EXAMPLES) {
            examples.add(record);
        }
    }

    public long total() {
        return total;
    }

    /** Count per reason, by reason name. */
    public Map<String, Long> byReason() {
        return new TreeMap<>(byReason);
    }

    public List<MalformedRecord> examples() {
        return List.copyOf(examples);
    }
}
