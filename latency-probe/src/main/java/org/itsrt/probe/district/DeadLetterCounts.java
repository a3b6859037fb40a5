package org.itsrt.probe.district;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.records.DeadLetterHeaders;

/**
 * Dead letters per stream, by the category of their reason ({@link DeadLetterHeaders#category}).
 * A dead letter is an input the job rejected (a reading, a route request), so its output never
 * comes: the stream's loss counts it too, and this says how many of the lost the job turned away.
 * Dead letters of a topic that is neither stream's source are counted apart.
 */
public final class DeadLetterCounts {

    private final Map<DistrictStream, Map<String, Long>> byStream = new EnumMap<>(DistrictStream.class);
    private final Map<String, Long> otherSources = new TreeMap<>();

    public DeadLetterCounts() {
        for (DistrictStream stream : DistrictStream.values()) {
            byStream.put(stream, new TreeMap<>());
        }
    }

    /** A dead letter of {@code stream}'s input with {@code reason} (the header's text, null if absent). */
    public void add(DistrictStream stream, String reason) {
        byStream.get(stream).merge(DeadLetterHeaders.category(reason), 1L, Long::sum);
    }

    /** A dead letter whose source topic feeds neither stream ({@code null}: no source header). */
    public void addOther(String sourceTopic) {
        otherSources.merge(sourceTopic == null ? "(no source topic)" : sourceTopic, 1L, Long::sum);
    }

    /** Dead letters of one stream's input. */
    public long total(DistrictStream stream) {
        return byStream.get(stream).values().stream().mapToLong(Long::longValue).sum();
    }

    /** One stream's dead letters by reason category, sorted by category. */
    public Map<String, Long> byReason(DistrictStream stream) {
        return Map.copyOf(byStream.get(stream));
    }

    /** Dead letters of other source topics, by topic, sorted. */
    public Map<String, Long> otherSources() {
        return new TreeMap<>(otherSources);
    }
}
