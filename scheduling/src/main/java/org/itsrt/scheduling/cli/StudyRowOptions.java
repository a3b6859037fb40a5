package org.itsrt.scheduling.cli;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.scheduling.budget.StudyRow;
import picocli.CommandLine.Option;

/** A row of the study's scheduler rows as the reservation, and the rows file it is read from. */
final class StudyRowOptions {

    @Option(
            names = "--row",
            paramLabel = "NAME",
            description = "a row of the study's scheduler rows, e.g. rtds-76750 or credit-cap153: an RTDS row's "
                    + "budget and period per vCPU, a Credit cap as CFS bandwidth over "
                    + StudyRow.CREDIT_CAP_PERIOD_US + " us; rows without a cap have no CPU limit")
    String row;

    @Option(
            names = "--rows",
            paramLabel = "FILE",
            description = "another rows file with the columns of the repository's " + ProjectPaths.STUDY_ROWS
                    + "; with --row")
    Path rowsFile;
}
