package org.itsrt.stack.flink;

import picocli.CommandLine.Option;

/** {@code --taskmanagers N}: the TaskManager processes of a standalone cluster. */
public final class TaskManagerCountOption {

    @Option(
            names = "--taskmanagers",
            paramLabel = "N",
            description = "TaskManager processes of the standalone cluster (default: 1)")
    Integer taskManagers;

    /** The count given, or null. */
    public Integer given() {
        return taskManagers;
    }

    /** The count given, else one. */
    public int count() {
        return taskManagers != null ? taskManagers : 1;
    }
}
