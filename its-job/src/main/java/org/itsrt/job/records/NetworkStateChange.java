package org.itsrt.job.records;

/**
 * A route subtask took a newer update into its network-wide state. The route operator emits
 * these on a side output so that a run (or a test) can watch the state converge; nothing
 * consumes them unless asked to. A Flink POJO.
 */
public class NetworkStateChange {

    /** Which parallel instance of the route operator changed its state. */
    public int subtask;

    public ConditionUpdate update;

    public NetworkStateChange() {}

    public NetworkStateChange(int subtask, ConditionUpdate update) {
        this.subtask = subtask;
        this.update = update;
    }

    @Override
    public String toString() {
        return "NetworkStateChange[subtask=" + subtask + ", " + update + "]";
    }
}
