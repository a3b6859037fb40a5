package org.itsrt.stack;

/**
 * A tiny child for {@link ChildJvmTest}: says it waits, with its pid, then runs until its parent
 * goes away; with the argument {@code fail} it complains on stderr and exits with status 3 instead.
 */
public final class WaitingMain {

    private WaitingMain() {}

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("fail")) {
            System.err.println("no such setting: " + WaitingMain.class.getName());
            System.exit(3);
        }
        System.out.println(
                "waiting for the parent (pid " + ProcessHandle.current().pid() + ")");
        ParentWatch.exitWhenParentEnds();
    }
}
