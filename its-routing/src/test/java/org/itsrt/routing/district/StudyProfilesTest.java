package org.itsrt.routing.district;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;
import org.itsrt.readings.pems.PemsImporter;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyProfilesTest {

    private static List<Reading> sample() throws IOException {
        return CanonicalTable.read(ProjectPaths.locate().sampleTable());
    }

    @Test
    void eachIntervalOfTheWeekIsTheMeanOfItsReadingsPerLane() throws IOException {
        // Two weeks: each interval of the week is the mean of two days.
        List<Reading> readings = new SyntheticGenerator(9).generate(LocalDate.of(2018, 4, 2), 14);
        StudyProfiles.Profile athens =
                StudyProfiles.of(readings, "two weeks").profiles().get(StudyStation.ATHENS.ordinal());

        LocalDateTime tuesdayEight = LocalDateTime.of(2018, 4, 3, 8, 0);
        double expected = readings.stream()
                .filter(r -> r.stationId() == StudyStation.ATHENS.vdsId())
                .filter(r -> {
                    LocalDateTime local = r.tsLocal().toLocalDateTime();
                    return local.equals(tuesdayEight) || local.equals(tuesdayEight.plusWeeks(1));
                })
                .mapToDouble(r -> r.flow() / r.lanes())
                .average()
                .orElseThrow();
        int interval = StudyProfiles.intervalOfWeek(tuesdayEight);

        assertThat(interval).isEqualTo(288 + 96);
        assertThat(athens.flowPerLane()[interval]).isEqualTo(expected);
        assertThat(athens.flowPerLaneAt(interval + 0.5))
                .isEqualTo((athens.flowPerLane()[interval] + athens.flowPerLane()[interval + 1]) / 2);
        // The week wraps: after Sunday 23:55 comes Monday 00:00.
        assertThat(athens.flowPerLaneAt(StudyProfiles.PER_WEEK)).isEqualTo(athens.flowPerLane()[0]);
    }

    @Test
    void theSampleGivesSixFullWeeksWithTheSpringDstHourFilledAndCongestionInTheSpeedShare() throws IOException {
        StudyProfiles profiles = StudyProfiles.of(sample(), "sample");

        assertThat(profiles.profiles())
                .extracting(StudyProfiles.Profile::station)
                .containsExactly(StudyStation.values());
        for (StudyProfiles.Profile profile : profiles.profiles()) {
            assertThat(profile.flowPerLane()).hasSize(StudyProfiles.PER_WEEK);
            assertThat(Arrays.stream(profile.flowPerLane())).allMatch(Double::isFinite);
            assertThat(Arrays.stream(profile.speedShare())).allMatch(share -> share > 0 && share <= 1);
            assertThat(profile.freeFlowSpeed()).isBetween(60.0, 75.0);
            // Sunday 2018-03-11 02:00-02:55 does not exist: filled between 01:55 and 03:00.
            int sundayTwo = StudyProfiles.intervalOfWeek(LocalDateTime.of(2018, 3, 11, 2, 0));
            double before = profile.flowPerLane()[sundayTwo - 1];
            double after = profile.flowPerLane()[sundayTwo + 12];
            assertThat(profile.flowPerLane()[sundayTwo]).isEqualTo(before + (after - before) / 13);
            // Weekday peaks are busier and slower than the night.
            int tuesdayThree = StudyProfiles.intervalOfWeek(LocalDateTime.of(2018, 3, 6, 3, 0));
            double busiestTuesday =
                    Arrays.stream(profile.flowPerLane(), 288, 576).max().orElseThrow();
            double slowestTuesday =
                    Arrays.stream(profile.speedShare(), 288, 576).min().orElseThrow();
            assertThat(busiestTuesday).isGreaterThan(3 * profile.flowPerLane()[tuesdayThree]);
            assertThat(slowestTuesday).isLessThan(0.9);
        }
    }

    @Test
    void aTableWithoutAStudyStationOrADayOfTheWeekIsRefusedNamingBoth() throws IOException {
        List<Reading> sample = sample();
        List<Reading> noWilmington = sample.stream()
                .filter(r -> r.stationId() != StudyStation.WILMINGTON.vdsId())
                .toList();
        List<Reading> noTuesday = sample.stream()
                .filter(r -> r.tsLocal().getDayOfWeek() != DayOfWeek.TUESDAY)
                .toList();

        assertThatThrownBy(() -> StudyProfiles.of(noWilmington, "t.csv"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("t.csv: station 717731 (Wilmington) has no readings; a profile table needs readings of "
                        + "the six study stations, at least a whole week of each");
        assertThatThrownBy(() -> StudyProfiles.of(noTuesday, "t.csv"))
                .hasMessage("t.csv: station 764598 (El Segundo) has no readings on a Tuesday; a profile "
                        + "table needs at least a whole week of each study station");
    }

    @Test
    void aStationWithoutSpeedsHasAShareOfOne() throws IOException {
        List<Reading> flowOnlyAthens = sample().stream()
                .map(r -> r.stationId() == StudyStation.ATHENS.vdsId()
                        ? new Reading(r.stationId(), r.tsUtc(), r.flow(), null, null, r.lanes(), r.source())
                        : r)
                .toList();

        StudyProfiles.Profile athens =
                StudyProfiles.of(flowOnlyAthens, "t").profiles().get(StudyStation.ATHENS.ordinal());

        assertThat(athens.freeFlowSpeed()).isNaN();
        assertThat(athens.speedShare()).containsOnly(1.0);
    }

    /**
     * With the study's own PeMS files (in the folder Maven passes as {@code itsrt.shared.data}),
     * the profiles are the real stations' weeks. Skipped without them.
     */
    @Test
    void theStudysRealFilesGiveSixProfilesAndADistrictOfTheirShapes(@TempDir Path temp) throws IOException {
        String shared = System.getProperty("itsrt.shared.data");
        Path folder = shared == null ? null : Path.of(shared, "pems-2018-03-d07");
        Assumptions.assumeTrue(
                folder != null && Files.isDirectory(folder),
                "the study's PeMS files are not at " + folder + " (system property itsrt.shared.data); skipped");
        List<Reading> real = new PemsImporter(PemsImporter.Options.strict(), line -> {})
                .importFrom(List.of(folder))
                .readings();

        StudyProfiles profiles = StudyProfiles.of(real, folder.toString());

        Map<StudyStation, Double> peaks = profiles.profiles().stream()
                .collect(Collectors.toMap(
                        StudyProfiles.Profile::station,
                        p -> Arrays.stream(p.flowPerLane()).max().orElseThrow()));
        assertThat(peaks.values()).allSatisfy(peak -> assertThat(peak).isBetween(50.0, 250.0));

        // A district following the real shapes goes through the importer like any other.
        Path district = temp.resolve("real-shapes");
        new DistrictGenerator(1, 150, profiles).write(district, LocalDate.of(2018, 3, 6), 1, "test", "real");
        List<Reading> imported = new PemsImporter(PemsImporter.Options.strict(), line -> {})
                .importFrom(List.of(district))
                .readings();
        assertThat(imported).hasSize(150 * 288).allSatisfy(r -> assertThat(r.isSynthetic())
                .isTrue());
    }
}
