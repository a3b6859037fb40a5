package org.itsrt.scheduling.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.scheduling.linux.BudgetLedger;
import org.itsrt.scheduling.linux.CgroupIo;
import org.itsrt.scheduling.linux.Chrt;
import org.itsrt.scheduling.linux.LeftoverRestore;
import org.itsrt.scheduling.linux.Proc;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its budget restore}: restores the budgets that runs killed without restoring them left behind. */
@Command(
        name = "restore",
        sortOptions = false,
        description = {
            "Restores CPU budgets that a killed run left in force. Every budget that ./its budget apply, ./its "
                    + "experiment and ./its tune apply is recorded before it takes effect, one JSON file per budget "
                    + "in the state folder (below), with the process that applied it (pid and start time), what it "
                    + "changed and the value before; the file is removed when the budget is restored. A run killed "
                    + "with kill -9 restores nothing, so its file stays. This command restores every recorded budget "
                    + "whose process is gone: the processes of a cgroup go back to the groups they came from and the "
                    + "group is removed; each thread that still has the SCHED_DEADLINE reservation set gets its "
                    + "previous policy back. A budget whose process still runs is left alone. A thread or process "
                    + "that has exited, or a cgroup already removed, needs nothing and is noted. Those three "
                    + "commands do the same at their start.",
            "State folder: -D" + BudgetLedger.DIR_PROPERTY + " or $" + BudgetLedger.DIR_ENV + " if set, else "
                    + "/run/its-rt/budgets as root, else $XDG_RUNTIME_DIR/its-rt/budgets, else "
                    + "TMPDIR/its-rt-USER/budgets."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:restored every leftover, or there was nothing to restore",
            "1:a leftover could not be restored (the message names its file and what to do)"
        })
final class RestoreCommand implements Callable<Integer> {

    @Mixin
    HelpOption help;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--list",
            description = "list every recorded budget, whether its process still runs and what restore would do; "
                    + "change nothing")
    boolean list;

    @Option(names = "--dry-run", description = "print what would be restored; change nothing")
    boolean dryRun;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "the folder of budget records (default: as above)")
    Path stateDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BudgetLedger ledger = stateDir != null ? new BudgetLedger(stateDir, Proc.SYSTEM) : BudgetLedger.system();
        LeftoverRestore restore = new LeftoverRestore(ledger, CgroupIo.SYSTEM, new Chrt());
        List<LeftoverRestore.Leftover> all = restore.list();
        long dead = all.stream().filter(l -> !l.ownerAlive()).count();
        if (list || dryRun) {
            for (LeftoverRestore.Leftover l : all) {
                if (l.ownerAlive() && !list) {
                    continue;
                }
                out.println((l.ownerAlive() ? "left alone (its process runs): " : "would restore: ") + l.describe());
            }
            if (dead == 0) {
                out.println("nothing to restore (" + ledger.dir() + ": "
                        + (all.isEmpty() ? "no budget recorded" : all.size() + " budget(s) of running processes")
                        + ")");
            }
            out.flush();
            return 0;
        }
        List<LeftoverRestore.Outcome> outcomes = restore.restoreDead();
        boolean failed = false;
        for (LeftoverRestore.Outcome o : outcomes) {
            if (o.failed()) {
                failed = true;
                err.println("its budget restore: " + o.error());
                continue;
            }
            long owner = o.leftover().found().record().owner().pid();
            for (String line : o.lines()) {
                out.println("restored (left by process " + owner + "): " + line);
            }
        }
        if (outcomes.isEmpty()) {
            out.println("nothing to restore (" + ledger.dir() + ": "
                    + (all.isEmpty()
                            ? "no budget recorded"
                            : all.size() + " budget(s) of running processes, left alone")
                    + ")");
        }
        out.flush();
        err.flush();
        return failed ? 1 : 0;
    }
}
