package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code -h}, {@code --help}: the command's usage. */
public final class HelpOption {

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;
}
