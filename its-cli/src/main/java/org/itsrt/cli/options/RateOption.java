package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --rate HZ}: records per second from each detector, the study's unit of load. */
public final class RateOption {

    /** The study's load: 10 records/s from each detector. */
    public static final double STUDY_RATE_HZ = 10;

    @Option(
            names = "--rate",
            paramLabel = "HZ",
            description = "records per second per detector, open loop (default: 10, the study's load)")
    Double rate;

    /** The rate given, or null. */
    public Double given() {
        return rate;
    }

    /** The rate given, else the study's. */
    public double perDetector() {
        return rate != null ? rate : STUDY_RATE_HZ;
    }
}
