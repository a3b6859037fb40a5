package org.itsrt.job;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RouteAnswer;

/**
 * The streams {@link ItsJob#buildDistrict} wired, for a caller that wants to attach more to them.
 * The {@link DistrictJobIO}'s sinks are already attached to them.
 *
 * @param predictions  one prediction per valid reading
 * @param routes       one answer per valid route request
 * @param deadLetters  the readings and requests that failed validation
 * @param networkState every change of each routing subtask's network-wide state
 */
public record DistrictStreams(
        DataStream<PredictedFlow> predictions,
        DataStream<RouteAnswer> routes,
        DataStream<DeadLetter> deadLetters,
        DataStream<NetworkStateChange> networkState) {}
