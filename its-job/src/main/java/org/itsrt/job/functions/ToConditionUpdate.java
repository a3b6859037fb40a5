package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.MapFunction;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.FlowPrediction;

/** A prediction reduced to the conditions every route subtask must learn of. */
public class ToConditionUpdate implements MapFunction<FlowPrediction, ConditionUpdate> {

    private static final long serialVersionUID = 1L;

    @Override
    public ConditionUpdate map(FlowPrediction prediction) {
        return ConditionUpdate.of(prediction);
    }
}
