package org.itsrt.cli.options;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --detectors}: the detectors a command works on, named or counted: produce replays the VDS
 * ids given, generate makes a district of the number given.
 */
public final class DetectorsOption {

    @Option(
            names = "--detectors",
            split = ",",
            paramLabel = "VDS|N",
            description = "the detectors: produce replays these VDS ids (comma-separated; default: "
                    + "the six study detectors); generate --detectors N writes a generated district of N detectors "
                    + "instead of the six study stations' table")
    List<Long> detectors;

    /** The VDS ids given, or null. */
    public List<Long> ids() {
        return detectors;
    }

    /**
     * The one number given, or null when the option was not given.
     *
     * @throws IllegalArgumentException naming the option, when more than one number or one too
     *     large for a count was given
     */
    public Integer count() {
        if (detectors == null) {
            return null;
        }
        if (detectors.size() != 1 || detectors.get(0) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--detectors takes one number N here, got "
                    + String.join(",", detectors.stream().map(String::valueOf).toList()));
        }
        return detectors.get(0).intValue();
    }
}
