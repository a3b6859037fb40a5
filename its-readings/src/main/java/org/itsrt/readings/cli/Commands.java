package org.itsrt.readings.cli;

import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine;

/** How the readings commands run and fail: one clear line on error, the stack trace only when asked. */
final class Commands {
    static final int BAD_INPUT = 1;

    private Commands() {}

    /**
     * The command line that runs a command.
     *
     * @param verbose tells whether the user asked for stack traces (read after parsing)
     */
    static <T extends Callable<Integer>> CommandLine commandLine(T command, Predicate<T> verbose) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setExecutionExceptionHandler((error, cmd, parseResult) -> {
            cmd.getErr().println(cmd.getCommandName() + ": " + message(error));
            if (verbose.test(command)) {
                error.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return BAD_INPUT;
        });
        return commandLine;
    }

    private static String message(Throwable error) {
        if (error instanceof NoSuchFileException missing) {
            return "no such file or directory: " + missing.getFile();
        }
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }
}
