package org.itsrt.scheduling.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.Durations;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.linux.AppliedBudget;
import org.itsrt.scheduling.linux.CgroupBackend;
import org.itsrt.scheduling.linux.CgroupBandwidth;
import org.itsrt.scheduling.linux.CgroupFs;
import org.itsrt.scheduling.linux.CgroupIo;
import org.itsrt.scheduling.linux.CpuBudgetBackend;
import org.itsrt.scheduling.linux.DeadlineBackend;
import org.itsrt.scheduling.linux.DeadlineParams;
import org.itsrt.scheduling.linux.InterferenceLoad;
import org.itsrt.scheduling.linux.LeftoverRestore;
import org.itsrt.scheduling.linux.LinuxBackends;
import org.itsrt.scheduling.linux.NoneBackend;
import org.itsrt.scheduling.linux.Proc;
import org.itsrt.scheduling.linux.ThreadSelector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its budget apply}: a budget on a running process of this machine, until it exits, time is up, or Ctrl-C. */
@Command(
        name = "apply",
        sortOptions = false,
        description = {
            "Puts a CPU budget on a running process with a Linux backend: linux-cgroup (the whole process "
                    + "tree in a new cgroup with quota vcpus x budget every period, optionally pinned), "
                    + "linux-deadline (SCHED_DEADLINE budget/period on each thread whose name matches "
                    + "--threads) or none; the budget given as --budget-us/--period-us or as a study row "
                    + "(--row, e.g. rtds-76750 or credit-cap153). Optionally starts an interference load in a sibling cgroup. Holds "
                    + "until the process exits, --for has passed, or Ctrl-C; then restores everything and prints "
                    + "what was set and measured (throttling counters, CPU time). Needs root. Before it applies "
                    + "anything it restores the budgets that killed runs left in force (as 'its budget restore')."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:applied, held and restored",
            "1:could not apply or restore (the message says why)",
            "2:bad usage"
        })
final class ApplyCommand implements Callable<Integer> {

    @Mixin
    ReservationOptions reservation;

    @Mixin
    StudyRowOptions studyRows;

    @Mixin
    VerboseOption verboseOption;

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--backend",
            required = true,
            paramLabel = "NAME",
            description = "none, linux-cgroup or linux-deadline")
    String backend;

    @Option(names = "--pid", required = true, paramLabel = "PID", description = "the process to put under the budget")
    long pid;

    @Option(names = "--cpus", paramLabel = "LIST", description = "linux-cgroup: pin the group to these CPUs, e.g. 0-1")
    String cpus;

    @Option(
            names = "--threads",
            paramLabel = "REGEX",
            description = "linux-deadline: threads whose name (comm, 15 characters) matches (default: all threads)")
    String threads;

    @Option(
            names = "--cgroup-root",
            paramLabel = "DIR",
            defaultValue = "/sys/fs/cgroup",
            description = "where the cgroup file system is mounted (default: ${DEFAULT-VALUE})")
    Path cgroupRoot;

    @Option(
            names = "--cgroup-parent",
            paramLabel = "PATH",
            defaultValue = "",
            description = "parent of the new groups, relative to the hierarchy root (default: the root)")
    String cgroupParent;

    @Mixin
    InterferenceOptions interferenceOptions;

    @Option(
            names = {"--for", "--seconds"},
            paramLabel = "TIME",
            defaultValue = "0",
            converter = DurationConverter.class,
            description = "restore after this long, e.g. 30s, 1m30s; a plain number is seconds (default: hold "
                    + "until the process exits or Ctrl-C)")
    Duration holdFor;

    @Override
    public Integer call() throws Exception {
        CpuBudgetBackend chosen = backend();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // A run killed with kill -9 restored nothing: its budgets go first, so that they neither hold the
        // process given here nor count against SCHED_DEADLINE admission.
        LeftoverRestore.atStart("its budget apply", err);
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stop.countDown();
                    try {
                        reported.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-budget-apply-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        AppliedBudget applied = null;
        InterferenceLoad interference = null;
        Map<String, Object> facts = new LinkedHashMap<>();
        long appliedAt = 0;
        try {
            applied = chosen.apply(pid);
            appliedAt = System.nanoTime();
            err.println("its budget apply: " + applied.description());
            if (interferenceOptions.load != null) {
                interference = interferenceOptions.start(spec.commandLine(), cgroupRoot, cgroupParent);
                err.println("its budget apply: started " + interference
                        + interference.group().map(g -> " in " + g.dirs()).orElse(""));
            }
            err.println("its budget apply: holding "
                    + (!holdFor.isZero()
                            ? "for " + Durations.format(holdFor)
                            : "until process " + pid + " exits or Ctrl-C"));
            err.flush();
            long deadline = !holdFor.isZero() ? System.nanoTime() + holdFor.toNanos() : Long.MAX_VALUE;
            while (!stop.await(200, TimeUnit.MILLISECONDS)) {
                if (!Proc.SYSTEM.alive(pid)) {
                    err.println("its budget apply: process " + pid + " exited");
                    break;
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
        } finally {
            // The load stops first, so that the budget's last counters include the contention it caused.
            if (interference != null) {
                interference.close();
            }
            if (applied != null) {
                // How long the budget held, so that its CPU time reads as a share of the CPUs.
                long heldNanos = System.nanoTime() - appliedAt;
                applied.close();
                facts.put("budget", applied.facts());
                facts.put("held_ms", heldNanos / 1_000_000);
                if (interference != null) {
                    facts.put("load", interference.facts());
                }
                FactsOutput.print(out, facts, reservation.format.equals("json"));
            }
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once this returns
            }
        }
        return 0;
    }

    private CpuBudgetBackend backend() {
        CommandLine cmd = spec.commandLine();
        if (!LinuxBackends.NAMES.contains(backend)) {
            throw new CommandLine.ParameterException(
                    cmd,
                    "--backend must be one of " + LinuxBackends.NAMES + ", got '" + backend
                            + "' (xen-* backends are set with xl on a Xen host: see 'its budget')");
        }
        String problem = reservation.problem(java.util.List.of("text", "json"));
        if (problem != null) {
            throw new CommandLine.ParameterException(cmd, problem);
        }
        if (backend.equals(NoneBackend.NAME)) {
            return LinuxBackends.none();
        }
        if (studyRows.rowsFile != null && studyRows.row == null) {
            throw new CommandLine.ParameterException(cmd, "--rows names the file --row reads: give --row too");
        }
        Reservation r = studyRows.row != null
                ? studyRows.reservation(cmd, reservation)
                : reservation.given(cmd, "--backend " + backend);
        try {
            if (backend.equals(CgroupBackend.NAME)) {
                CgroupBandwidth bw = CgroupBandwidth.of(r, reservation.vcpus);
                return new CgroupBackend(
                        CgroupFs.detect(cgroupRoot, CgroupIo.SYSTEM, Proc.SYSTEM),
                        cgroupParent,
                        CgroupBackend.DEFAULT_NAME_PREFIX,
                        cpus == null ? bw : bw.pinnedTo(cpus));
            }
            return new DeadlineBackend(
                    DeadlineParams.of(r), threads == null ? ThreadSelector.all() : ThreadSelector.matching(threads));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, e.getMessage());
        }
    }
}
