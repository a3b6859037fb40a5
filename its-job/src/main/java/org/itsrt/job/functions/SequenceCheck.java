package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.ValidReading;

/**
 * Passes a detector's reading only when its {@code seq} is above the last one accepted for that
 * detector; any other goes to {@link ParseAndValidate#DEAD_LETTERS} with the reason {@code seq not
 * increasing: ...} (docs/records.md). A replayed, duplicated or reordered reading would otherwise
 * be predicted again and, being older, could be routed with conditions that are no longer the
 * newest.
 *
 * <p>Keyed by detector; the last accepted seq is keyed {@link ValueState}, so it is checkpointed and
 * restored with the source's offsets and stays consistent with them after a restart. A rejected
 * reading changes nothing: the state moves only when a reading passes, so the readings that pass
 * are the same with or without rejected ones among them.
 */
public class SequenceCheck extends KeyedProcessFunction<Long, ValidReading, ValidReading> {

    private static final long serialVersionUID = 1L;

    /** The category of this check's reason (docs/records.md). */
    public static final String REASON = "seq not increasing";

    private transient ValueState<Long> lastAccepted;

    @Override
    public void open(OpenContext openContext) {
        lastAccepted = getRuntimeContext().getState(new ValueStateDescriptor<>("last-accepted-seq", Types.LONG));
    }

    @Override
    public void processElement(ValidReading reading, Context ctx, Collector<ValidReading> out) throws Exception {
        Long last = lastAccepted.value();
        if (last != null && reading.seq <= last) {
            ctx.output(
                    ParseAndValidate.DEAD_LETTERS,
                    new DeadLetter(
                            reading.source,
                            REASON + ": " + reading.seq + " is not after " + last
                                    + ", the last accepted seq of detector " + reading.detector));
            return;
        }
        lastAccepted.update(reading.seq);
        // The original bytes were kept only for this dead letter; nothing downstream needs them.
        reading.source = null;
        out.collect(reading);
    }
}
