package org.itsrt.commands;

import org.itsrt.cli.OneLineErrors;
import picocli.CommandLine;

/** How the suite's commands are run: picocli with {@link OneLineErrors}, a refusal in one line. */
final class Commands {

    private Commands() {}

    /** {@code command}'s command line, its refusals and failures in one line each. */
    static CommandLine commandLine(Object command) {
        return OneLineErrors.install(new CommandLine(command));
    }

    /** Runs {@code command} on {@code args}; its exit code. */
    static int execute(Object command, String[] args) {
        return commandLine(command).execute(args);
    }
}
