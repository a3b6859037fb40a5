package org.itsrt.cli.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import picocli.CommandLine.Option;

/** {@code --data FILE}: the canonical readings a command replays. */
public final class DataOption {

    @Option(
            names = "--data",
            paramLabel = "FILE",
            description = "canonical readings table (.csv or .csv.gz) to replay (default: the committed synthetic "
                    + "sample, " + ProjectPaths.SAMPLE_TABLE + ")")
    Path data;

    /** The file given, or null for the committed sample. */
    public Path given() {
        return data;
    }

    /** The file given, else the committed sample. */
    public Path path() {
        return data != null ? data : ProjectPaths.locate().sampleTable();
    }
}
