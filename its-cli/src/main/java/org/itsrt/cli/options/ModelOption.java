package org.itsrt.cli.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import picocli.CommandLine.Option;

/** {@code --model DIR}: the model bundle the job loads. */
public final class ModelOption {

    @Option(
            names = "--model",
            paramLabel = "DIR",
            description = "model bundle (default: the shipped one, " + ProjectPaths.MODEL_BUNDLE + ")")
    Path model;

    /** The bundle given, or null for the shipped one. */
    public Path given() {
        return model;
    }

    /** The bundle given, else the shipped one. */
    public Path path() {
        return model != null ? model : ProjectPaths.locate().modelBundle();
    }
}
