package org.itsrt.cli;

import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * How every command fails: one line naming the command and what went wrong. At run time exit
 * code 1, the stack trace too only when {@code --verbose} was given, to the command or to the
 * subcommand that ran; a bad option or plan exit code 2, without the usage text, which {@code
 * --help} prints (a refusal under twenty lines of usage is easy to miss).
 */
public final class OneLineErrors {

    /** The exit code of a command that failed at run time. */
    public static final int FAILED = 1;

    private OneLineErrors() {}

    /** {@code commandLine}, its failures reported in one line each. */
    public static CommandLine install(CommandLine commandLine) {
        commandLine.setParameterExceptionHandler((error, args) -> {
            CommandLine cmd = error.getCommandLine();
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + asTyped(error, args));
            cmd.getErr().flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        });
        commandLine.setExecutionExceptionHandler((error, cmd, parseResult) -> {
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + message(error));
            if (verbose(parseResult)) {
                error.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return FAILED;
        });
        return commandLine;
    }

    /**
     * A refused option's message naming the option as the user typed it: picocli names an option
     * of several names by its longest ({@code --seconds} for {@code --for 10s}).
     */
    static String asTyped(ParameterException error, String[] args) {
        String message = message(error);
        if (error.getArgSpec() instanceof OptionSpec option && option.names().length > 1) {
            String longest = option.longestName();
            for (String arg : args) {
                for (String name : option.names()) {
                    if (!name.equals(longest) && (arg.equals(name) || arg.startsWith(name + "="))) {
                        return message.replace("'" + longest + "'", "'" + name + "'");
                    }
                }
            }
        }
        return message;
    }

    /** What went wrong, in one line: a missing file named, else the error's message, else its kind. */
    public static String message(Throwable error) {
        if (error instanceof NoSuchFileException missing) {
            return "no such file or directory: " + missing.getFile();
        }
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }

    private static boolean verbose(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
