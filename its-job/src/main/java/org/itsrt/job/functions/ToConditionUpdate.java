package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.MapFunction;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.PredictedFlow;

/** A prediction reduced to the conditions every route subtask must learn of. */
public class ToConditionUpdate implements MapFunction<PredictedFlow, ConditionUpdate> {

    private static final long serialVersionUID = 1L;

    @Override
    public ConditionUpdate map(PredictedFlow prediction) {
        return ConditionUpdate.of(prediction);
    }
}
