package org.itsrt.job.functions;

import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidReading;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;

/**
 * Reads and validates each input record (docs/records.md). A record that fails goes to the
 * {@link #DEAD_LETTERS} side output with its original bytes and the reason; bad data never
 * throws, so one malformed record cannot fail and restart the job. A record of a detector that
 * is not in the routing graph is rejected too: its prediction could not take part in routing.
 * Each reason is {@code CATEGORY: detail} (docs/records.md). Keeps no state, so a rejected record
 * changes nothing for the ones after it. Measures {@code parse_ns}.
 *
 * <p>The readings it passes carry their original record on to {@link SequenceCheck}, the keyed
 * check that follows, which dead-letters a {@code seq} that does not increase.
 */
public class ParseAndValidate extends ProcessFunction<RawReading, ValidReading> {

    private static final long serialVersionUID = 1L;

    /** Records that failed validation. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    /** The category of the reason for a detector outside the routing graph. */
    public static final String UNKNOWN_DETECTOR = "unknown detector";

    private final long[] knownDetectors;

    /** @param knownDetectors VDS ids of the graph's detectors, sorted ascending */
    public ParseAndValidate(long[] knownDetectors) {
        this.knownDetectors = knownDetectors.clone();
        Arrays.sort(this.knownDetectors);
    }

    @Override
    public void processElement(RawReading raw, Context ctx, Collector<ValidReading> out) {
        long start = System.nanoTime();
        if (raw.value == null) {
            ctx.output(DEAD_LETTERS, new DeadLetter(raw, "record has no value"));
            return;
        }
        ReadingRecord record;
        try {
            record = RecordJson.readReading(raw.value);
        } catch (RecordFormatException e) {
            ctx.output(DEAD_LETTERS, new DeadLetter(raw, e.getMessage()));
            return;
        } catch (RuntimeException e) {
            // The reader is meant to turn every problem into a RecordFormatException; should one
            // slip through, the record is still only dead-lettered.
            ctx.output(DEAD_LETTERS, new DeadLetter(raw, "unreadable: " + e));
            return;
        }
        if (Arrays.binarySearch(knownDetectors, record.detector()) < 0) {
            ctx.output(
                    DEAD_LETTERS,
                    new DeadLetter(raw, UNKNOWN_DETECTOR + ": " + record.detector() + " is not in the routing graph"));
            return;
        }
        out.collect(ValidReading.of(record, System.nanoTime() - start, raw));
    }
}
