package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --verbose}: a failure prints its stack trace, not only its one line. */
public final class VerboseOption {

    @Option(names = "--verbose", description = "on failure, print the stack trace too")
    boolean verbose;

    public boolean given() {
        return verbose;
    }
}
