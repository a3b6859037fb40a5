package org.itsrt.readings.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticGeneratorTest {

    private static final LocalDate MARCH_2018 = LocalDate.of(2018, 3, 1);
    private static List<Reading> march;

    @BeforeAll
    static void generateMarch() {
        march = new SyntheticGenerator(42).generate(MARCH_2018, 31);
    }

    @Test
    void aMarchHas8916IntervalsPerStation() {
        Map<Long, Long> rowsPerStation =
                march.stream().collect(Collectors.groupingBy(Reading::stationId, Collectors.counting()));
        assertThat(rowsPerStation).hasSize(6).allSatisfy((station, rows) -> assertThat(rows)
                .isEqualTo(8916L));
    }

    @Test
    void theAutumnDstDayHas300Intervals() {
        List<Reading> day = new SyntheticGenerator(1).generate(LocalDate.of(2018, 11, 4), 1);
        assertThat(day).hasSize(6 * 300);
        assertThat(day)
                .filteredOn(r -> r.stationId() == 764598 && r.tsLocal().getHour() == 1)
                .hasSize(24);
    }

    @Test
    void everyRowIsLabelledSyntheticAndSortedLikeTheTable() {
        assertThat(march).allSatisfy(r -> {
            assertThat(r.source()).isEqualTo("synthetic:seed=42");
            assertThat(r.pctObserved()).isNull();
            assertThat(r.speed()).isNotNull().isBetween(5.0, 80.0);
            assertThat(r.lanes())
                    .isEqualTo(StudyStation.byVdsId(r.stationId()).orElseThrow().lanes());
        });
        assertThat(march).isSortedAccordingTo(CanonicalTable.ORDER);
        assertThat(march)
                .extracting(Reading::tsLocal)
                .anySatisfy(t -> assertThat(t.getOffset().getTotalSeconds()).isEqualTo(-7 * 3600));
    }

    @Test
    void theSameSeedGivesTheSameFileAndAnotherSeedAnother(@TempDir Path dir) throws IOException {
        Path first = dir.resolve("a.csv");
        Path second = dir.resolve("b.csv");
        Path other = dir.resolve("c.csv");
        CanonicalTable.write(first, new SyntheticGenerator(7).generate(MARCH_2018, 3));
        CanonicalTable.write(second, new SyntheticGenerator(7).generate(MARCH_2018, 3));
        CanonicalTable.write(other, new SyntheticGenerator(8).generate(MARCH_2018, 3));

        assertThat(Files.readAllBytes(second)).isEqualTo(Files.readAllBytes(first));
        assertThat(Files.readString(other)).isNotEqualTo(Files.readString(first));
        assertThat(CanonicalTable.read(first)).isEqualTo(new SyntheticGenerator(7).generate(MARCH_2018, 3));
    }

    @Test
    void weekdaysPeakInTheMorningAndEveningAboveTheNightLow() {
        for (StudyStation station : StudyStation.values()) {
            Predicate<Reading> weekday = r -> r.tsLocal().getDayOfWeek().getValue() <= 5;
            double night = meanFlow(station, weekday, 2, 4);
            double amPeak = meanFlow(station, weekday, 7, 9);
            double pmPeak = meanFlow(station, weekday, 16, 18);
            double midday = meanFlow(station, weekday, 11, 13);
            assertThat(amPeak).as(station + " AM peak vs night").isGreaterThan(4 * night);
            assertThat(pmPeak).as(station + " PM peak vs night").isGreaterThan(4 * night);
            assertThat(Math.max(amPeak, pmPeak)).as(station + " peak vs midday").isGreaterThan(midday);
        }
    }

    @Test
    void weekendMorningsAreQuieterThanWeekdayMornings() {
        for (StudyStation station : StudyStation.values()) {
            double weekday = meanFlow(station, r -> r.tsLocal().getDayOfWeek().getValue() <= 5, 7, 9);
            double sunday = meanFlow(station, r -> r.tsLocal().getDayOfWeek() == DayOfWeek.SUNDAY, 7, 9);
            assertThat(sunday).as(station.displayName()).isLessThan(0.6 * weekday);
        }
    }

    @Test
    void theCorridorsPeakDifferently() {
        Predicate<Reading> weekday = r -> r.tsLocal().getDayOfWeek().getValue() <= 5;
        // 405 southbound carries the evening commute, 105 eastbound the morning one.
        StudyStation elSegundo = StudyStation.EL_SEGUNDO;
        assertThat(meanFlow(elSegundo, weekday, 16, 18)).isGreaterThan(meanFlow(elSegundo, weekday, 7, 9));
        StudyStation athens = StudyStation.ATHENS;
        assertThat(meanFlow(athens, weekday, 7, 9)).isGreaterThan(meanFlow(athens, weekday, 16, 18));
    }

    @Test
    void biggerStationsCarryMoreTraffic() {
        Predicate<Reading> all = r -> true;
        // El Segundo has five lanes, Long Beach three.
        assertThat(meanFlow(StudyStation.EL_SEGUNDO, all, 0, 24))
                .isGreaterThan(meanFlow(StudyStation.LONG_BEACH, all, 0, 24));
    }

    @Test
    void speedIsFreeFlowAtNightAndDropsWhenTrafficIsHeavy() {
        for (StudyStation station : StudyStation.values()) {
            List<Reading> readings =
                    march.stream().filter(r -> r.stationId() == station.vdsId()).toList();
            double nightSpeed = readings.stream()
                    .filter(r -> r.tsLocal().getHour() >= 1 && r.tsLocal().getHour() < 4)
                    .mapToDouble(Reading::speed)
                    .average()
                    .orElseThrow();
            assertThat(nightSpeed).as(station.displayName()).isBetween(63.0, 72.0);
            double maxFlow = readings.stream().mapToDouble(Reading::flow).max().orElseThrow();
            double speedAtHeavyFlow = readings.stream()
                    .filter(r -> r.flow() > 0.9 * maxFlow)
                    .mapToDouble(Reading::speed)
                    .average()
                    .orElseThrow();
            assertThat(speedAtHeavyFlow).as(station.displayName()).isLessThan(nightSpeed - 5);
        }
    }

    @Test
    void incidentsSlowTrafficOutsideThePeaks() {
        // Midday and late evening are never congested by volume alone; a slow run of at least
        // four intervals (20 minutes) there is an incident.
        long stationsWithIncidents = march.stream()
                .filter(r -> (r.tsLocal().getHour() >= 10 && r.tsLocal().getHour() < 14)
                        || r.tsLocal().getHour() >= 20)
                .filter(r -> r.speed() < 45)
                .collect(Collectors.groupingBy(
                        r -> r.stationId() + " " + r.tsLocal().toLocalDate(), Collectors.counting()))
                .entrySet()
                .stream()
                .filter(e -> e.getValue() >= 4)
                .map(e -> e.getKey().split(" ")[0])
                .distinct()
                .count();
        assertThat(stationsWithIncidents).isGreaterThanOrEqualTo(4);
    }

    private static double meanFlow(StudyStation station, Predicate<Reading> days, int fromHour, int toHour) {
        return march.stream()
                .filter(r -> r.stationId() == station.vdsId())
                .filter(days)
                .filter(r -> r.tsLocal().getHour() >= fromHour && r.tsLocal().getHour() < toHour)
                .mapToDouble(Reading::flow)
                .average()
                .orElseThrow();
    }
}
