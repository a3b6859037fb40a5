package org.itsrt.stack.kafka;

import java.util.HashSet;
import java.util.List;

/**
 * One partition as the cluster sees it, for a status display and for {@link LocalKafka#awaitInSync}.
 *
 * @param leader   the leader's node id, -1 when the partition has none
 * @param replicas the assigned replicas' node ids, preferred leader first
 * @param isr      the in-sync replicas' node ids
 */
public record PartitionState(String topic, int partition, int leader, List<Integer> replicas, List<Integer> isr) {

    public PartitionState {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
    }

    /** It has a leader and every replica is in sync. */
    public boolean inSync() {
        return leader >= 0 && new HashSet<>(isr).equals(new HashSet<>(replicas));
    }

    @Override
    public String toString() {
        return topic + "-" + partition + ": leader " + (leader < 0 ? "none" : leader) + ", replicas " + replicas
                + ", in sync " + isr;
    }
}
