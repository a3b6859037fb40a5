package org.itsrt.scheduling.linux;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Restores budgets whose JVM died without restoring them (kill -9, an OOM kill), from the records
 * of the {@link BudgetLedger}: a cgroup's processes go back where they came from and the group is
 * removed; a thread that still has the SCHED_DEADLINE reservation that was set gets its policy
 * back. A record whose owner still runs (the same pid and start time) is never touched: its budget
 * is in force on purpose. {@code ./its experiment}, {@code ./its tune} and {@code ./its budget apply}
 * call {@link #atStart} before they apply anything; {@code ./its budget restore} does it by hand.
 */
public final class LeftoverRestore {

    private final BudgetLedger ledger;
    private final CgroupIo io;
    private final Chrt chrt;

    public LeftoverRestore(BudgetLedger ledger, CgroupIo io, Chrt chrt) {
        this.ledger = ledger;
        this.io = io;
        this.chrt = chrt;
    }

    /** This machine's ledger, cgroups and chrt. */
    public static LeftoverRestore system() {
        return new LeftoverRestore(BudgetLedger.system(), CgroupIo.SYSTEM, new Chrt());
    }

    public BudgetLedger ledger() {
        return ledger;
    }

    /** A record and whether its owner still runs. */
    public record Leftover(BudgetLedger.Found found, boolean ownerAlive) {

        /** One line: what the record holds and whose it is. */
        public String describe() {
            BudgetLedger.Record r = found.record();
            BudgetLedger.Owner o = r.owner();
            return r.description() + "; applied " + r.created() + " by process " + o.pid() + " (" + o.command()
                    + "), which " + (ownerAlive ? "still runs" : "is gone") + "; record " + found.file();
        }
    }

    /**
     * What restoring one record did.
     *
     * @param lines one per cgroup directory or thread: which setting went back to what, or why nothing needed to
     * @param error null, or what failed, naming the record and what to do
     */
    public record Outcome(Leftover leftover, List<String> lines, String error) {
        public boolean failed() {
            return error != null;
        }
    }

    /** Every record, oldest first, with its owner's state. */
    public List<Leftover> list() {
        List<Leftover> out = new ArrayList<>();
        for (BudgetLedger.Found found : ledger.records()) {
            out.add(new Leftover(found, ledger.ownerAlive(found.record())));
        }
        return out;
    }

    /** The records whose owner is gone: what {@link #restoreDead()} would restore. */
    public List<Leftover> dead() {
        return list().stream().filter(l -> !l.ownerAlive()).toList();
    }

    /** Restores every record whose owner is gone; records of running owners stay as they are. */
    public List<Outcome> restoreDead() {
        List<Outcome> outcomes = new ArrayList<>();
        for (Leftover leftover : dead()) {
            outcomes.add(restore(leftover));
        }
        return outcomes;
    }

    private Outcome restore(Leftover leftover) {
        BudgetLedger.Found found = leftover.found();
        BudgetLedger.Record r = found.record();
        try {
            List<String> lines = new ArrayList<>();
            if (r.cgroup() != null) {
                CgroupGroup group = CgroupGroup.fromRecord(r.cgroup(), io, ledger.proc());
                String setting = group.settingText();
                try {
                    group.close();
                } finally {
                    for (String note : group.restoreNotes()) {
                        lines.add("cgroup " + r.cgroup().version() + " " + note + " (it had " + setting + ")");
                    }
                }
            } else {
                lines.addAll(DeadlineReservation.restoreRecord(r.deadline(), chrt, ledger.proc()));
            }
            BudgetLedger.delete(found.file());
            return new Outcome(leftover, lines, null);
        } catch (RuntimeException e) {
            String what = r.cgroup() != null
                    ? "move the processes in "
                            + r.cgroup().dirs().stream()
                                    .map(BudgetLedger.HierarchyDir::dir)
                                    .toList()
                            + " (their cgroup.procs) back to their parent group and rmdir the directories"
                    : "set the threads of process " + r.deadline().pid() + " back with chrt --other -p 0 TID";
            return new Outcome(
                    leftover,
                    List.of(),
                    "restoring " + found.file() + " (" + r.description() + ") failed: " + e.getMessage() + ". Fix "
                            + "the cause and run ./its budget restore again, or " + what + " and delete "
                            + found.file());
        }
    }

    /**
     * What a command does before it applies a budget: restores what killed runs left, one line per
     * setting on {@code log} (prefixed with the command's name), nothing when there is nothing. A
     * failure is reported and does not stop the command: the leftover stays recorded for the next
     * start or {@code ./its budget restore}.
     *
     * @return the outcomes, for tests
     */
    public static List<Outcome> atStart(String command, PrintStream log) {
        return atStart(system(), command, new PrintWriter(log, true));
    }

    public static List<Outcome> atStart(String command, PrintWriter log) {
        return atStart(system(), command, log);
    }

    public static List<Outcome> atStart(LeftoverRestore restore, String command, PrintWriter log) {
        List<Outcome> outcomes;
        try {
            outcomes = restore.restoreDead();
        } catch (SchedulingException e) {
            log.println(command + ": cannot look for budgets left by killed runs: " + e.getMessage());
            log.flush();
            return List.of();
        }
        for (Outcome o : outcomes) {
            BudgetLedger.Owner owner = o.leftover().found().record().owner();
            if (o.failed()) {
                log.println(command + ": " + o.error());
            }
            for (String line : o.lines()) {
                log.println(command + ": restored what killed process " + owner.pid() + " left: " + line);
            }
        }
        log.flush();
        return outcomes;
    }
}
