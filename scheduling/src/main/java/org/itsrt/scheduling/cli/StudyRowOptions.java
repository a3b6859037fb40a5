package org.itsrt.scheduling.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.budget.StudyRow;
import org.itsrt.scheduling.budget.StudyRows;
import picocli.CommandLine;
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

    /**
     * The rows file: {@code --rows}, or the repository's.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or a row is wrong
     * @throws org.itsrt.cli.MissingDefaultException when no repository holds the default file
     */
    StudyRows rows() {
        return StudyRows.read(
                rowsFile != null ? rowsFile : ProjectPaths.locate().studyRows());
    }

    /**
     * The row's reservation for {@code reserved}'s vCPUs, as {@code its budget --row} works it out:
     * an RTDS budget per vCPU, a Credit cap as bandwidth shared by the vCPUs. A row without a CPU
     * limit has none to give.
     */
    Reservation reservation(CommandLine cmd, ReservationOptions reserved) {
        if (reserved.budgetUs != null || reserved.period.one() != null) {
            throw new CommandLine.ParameterException(
                    cmd, "--row takes the reservation from the row: it goes without --budget-us/--period-us");
        }
        StudyRow studyRow;
        Optional<Reservation> reservation;
        try {
            studyRow = rows().row(row);
            reservation = studyRow.reservation(reserved.vcpus);
        } catch (IllegalArgumentException | MissingDefaultException e) {
            throw new CommandLine.ParameterException(cmd, "--row: " + e.getMessage());
        }
        return reservation.orElseThrow(() -> new CommandLine.ParameterException(
                cmd,
                "--row " + studyRow.name() + " has no CPU limit (" + studyRow.parameters()
                        + "): there is no budget to apply (--backend none holds the process unlimited)"));
    }

    /** The rows file as a reader knows it: the path given, or the repository-relative default. */
    String rowsShown() {
        return rowsFile != null ? rowsFile.toString() : ProjectPaths.STUDY_ROWS;
    }
}
