package org.itsrt.job;

import java.util.Optional;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.RoutedAdvice;

/**
 * The streams {@link ItsJob#build} wired, for a caller that wants to attach more to them (a test
 * collecting the network state, a runner printing progress). The {@link JobIO}'s sinks are already
 * attached to them.
 *
 * @param advice       the advice, one per valid reading
 * @param deadLetters  the records that failed validation
 * @param networkState every change of each route subtask's network-wide state; empty with
 *                     {@code --identity}, which keeps no state
 */
public record JobStreams(
        DataStream<RoutedAdvice> advice,
        DataStream<DeadLetter> deadLetters,
        Optional<DataStream<NetworkStateChange>> networkState) {}
