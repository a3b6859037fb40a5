package org.itsrt.probe;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code its-probe}'s command line in this JVM, as a user would, with both streams captured. */
public final class ProbeCli {

    /** The exit code and what the command wrote. */
    public record Result(int exit, String out, String err) {}

    private ProbeCli() {}

    /** Runs {@code its-probe SUBCOMMAND ARGS...}. */
    public static Result run(String subcommand, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        String[] full = new String[args.length + 1];
        full[0] = subcommand;
        System.arraycopy(args, 0, full, 1, args.length);
        int exit = cmd.execute(full);
        return new Result(exit, out.toString(), err.toString());
    }
}
