package org.itsrt.pipeline.budget;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.itsrt.scheduling.linux.AppliedBudget;

/**
 * A study row applied by a command: {@code xen-configs/apply-row.sh} where it can reach dom0, e.g.
 * {@code ssh root@dom0 /opt/its-rt/xen-configs/apply-row.sh}, or {@code docker/apply-row.sh} for
 * the Docker Compose stack's TaskManager containers. The runner calls {@code COMMAND ROW} once the
 * job is live and {@code COMMAND --restore} after the last record; the script sets the row (with
 * xl, or docker update), reads it back and fails naming the row when it did not take, so a run never
 * measures a configuration other than its row. What the script printed (its read-back) goes into
 * the run's {@code applied.json}.
 */
public final class XenRowCommand implements AppliedBudget {

    private static final long TIMEOUT_S = 120;

    private final String backend;
    private final String command;
    private final String row;
    private final Map<String, Object> facts = new LinkedHashMap<>();
    private List<String> restoreOutput;

    private XenRowCommand(String backend, String command, String row, String applyOutput) {
        this.backend = backend;
        this.command = command;
        this.row = row;
        facts.put("row_command", command);
        facts.put("xen_row", row);
        facts.put("applied_output", applyOutput.lines().toList());
    }

    /** Runs {@code COMMAND ROW}; fails with the command's output when it does not exit 0. */
    public static XenRowCommand apply(String backend, String command, String row) {
        return new XenRowCommand(backend, command, row, run(command, row));
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public String description() {
        return "Xen row " + row + " (" + command + " " + row + ")";
    }

    @Override
    public Map<String, Object> facts() {
        return Map.copyOf(facts);
    }

    @Override
    public synchronized Map<String, Object> restoreFacts() {
        return restoreOutput == null ? Map.of() : Map.of("restore_output", restoreOutput);
    }

    @Override
    public synchronized void close() {
        if (restoreOutput != null) {
            return;
        }
        // Marked first: a restore that fails is reported once, not tried again by a second close.
        restoreOutput = List.of();
        restoreOutput = run(command, "--restore").lines().toList();
    }

    /**
     * {@code sh -c 'COMMAND "$1"' sh ARG}: the command may hold options, an ssh prefix or
     * environment assignments; the row name is passed as one word, never re-parsed.
     */
    private static String run(String command, String arg) {
        Process process;
        try {
            process = new ProcessBuilder(List.of("/bin/sh", "-c", command + " \"$1\"", "sh", arg))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("--row-command: cannot run /bin/sh: " + e.getMessage(), e);
        }
        try {
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "--row-command: `" + command + " " + arg + "` did not finish within " + TIMEOUT_S + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("--row-command: `" + command + " " + arg + "` exited with "
                        + process.exitValue() + ":\n" + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("--row-command: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running the row command", e);
        }
    }
}
