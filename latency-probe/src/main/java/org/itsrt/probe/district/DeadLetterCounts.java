package org.itsrt.probe.district;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.Workload;

/**
 * Dead letters per stream, by the category of their reason ({@link DeadLetterHeaders#category}).
 * A dead letter is an input the job rejected (a reading, a route request), so its output never
 * comes: the stream's loss counts it too, and this says how many of the lost the job turned away.
 * Dead letters of a topic that is neither stream's source are counted apart.
 *
 * <p>A dead letter whose bytes the stream's input reader can read names the record the job
 * rejected (its detector or request stream, and {@code seq}); {@link #lostOfThem} tells how many
 * of the stream's lost records are such, so the rest of the loss is what went missing on the way.
 */
public final class DeadLetterCounts {

    private final Map<Workload.Stream, Map<String, Long>> byStream = new EnumMap<>(Workload.Stream.class);
    private final Map<String, Long> otherSources = new TreeMap<>();
    /** Per stream, the (source, seq) of the dead letters whose bytes could be read. */
    private final Map<Workload.Stream, Set<Key>> identified = new EnumMap<>(Workload.Stream.class);

    /** A rejected input: its detector or request stream, and its seq. */
    private record Key(long source, long seq) {}

    public DeadLetterCounts() {
        for (Workload.Stream stream : Workload.DISTRICT.streams()) {
            byStream.put(stream, new TreeMap<>());
            identified.put(stream, new HashSet<>());
        }
    }

    /**
     * A dead letter of {@code stream}'s input whose bytes could be read: the rejected record is
     * {@code seq} of {@code source} (a detector, or a request stream).
     */
    public void add(Workload.Stream stream, String reason, long source, long seq) {
        add(stream, reason);
        identified.get(stream).add(new Key(source, seq));
    }

    /**
     * How many of the records {@code sequences} (the stream's) counts as lost were dead-lettered:
     * rejected by the job, not lost on the way.
     */
    public long lostOfThem(Workload.Stream stream, SequenceTracker sequences) {
        return identified.get(stream).stream()
                .filter(k -> sequences.isLost(k.source(), k.seq()))
                .count();
    }

    /** A dead letter of {@code stream}'s input with {@code reason} (the header's text, null if absent). */
    public void add(Workload.Stream stream, String reason) {
        byStream.get(stream).merge(DeadLetterHeaders.category(reason), 1L, Long::sum);
    }

    /** A dead letter whose source topic feeds neither stream ({@code null}: no source header). */
    public void addOther(String sourceTopic) {
        otherSources.merge(sourceTopic == null ? "(no source topic)" : sourceTopic, 1L, Long::sum);
    }

    /** Dead letters of one stream's input. */
    public long total(Workload.Stream stream) {
        return byStream.get(stream).values().stream().mapToLong(Long::longValue).sum();
    }

    /** One stream's dead letters by reason category, sorted by category. */
    public Map<String, Long> byReason(Workload.Stream stream) {
        return Map.copyOf(byStream.get(stream));
    }

    /** Dead letters of other source topics, by topic, sorted. */
    public Map<String, Long> otherSources() {
        return new TreeMap<>(otherSources);
    }
}
