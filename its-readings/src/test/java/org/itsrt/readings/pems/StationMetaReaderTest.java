package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.readings.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StationMetaReaderTest {

    static final String HEADER = "ID\tFwy\tDir\tDistrict\tCounty\tCity\tState_PM\tAbs_PM\tLatitude\tLongitude\t"
            + "Length\tType\tLanes\tName\tUser_ID_1\tUser_ID_2\tUser_ID_3\tUser_ID_4\n";

    @TempDir
    Path dir;

    static Path fixture(String name) throws URISyntaxException {
        return Path.of(StationMetaReaderTest.class.getResource("/pems/" + name).toURI());
    }

    @Test
    void readsThePublishedLayout() throws Exception {
        Map<Long, StationMeta> stations = StationMetaReader.read(fixture("d07_text_meta_2018_03_11.txt"));

        assertThat(stations.keySet()).containsExactly(764598L, 717731L, 774445L, 999001L);
        assertThat(stations.get(764598L))
                .isEqualTo(new StationMeta(
                        764598,
                        405,
                        'S',
                        7,
                        "37",
                        "22412",
                        "22.35",
                        42.1,
                        33.928621,
                        -118.368522,
                        0.52,
                        "ML",
                        5,
                        "IMPERIAL"));
        assertThat(stations.get(717731L).city()).isEmpty();
        assertThat(stations.get(774445L).lanes()).isEqualTo(3);
        StationMeta unlocated = stations.get(999001L);
        assertThat(unlocated.statePostmile()).isEqualTo("R5.2");
        assertThat(unlocated.latitude()).isNaN();
        assertThat(unlocated.longitude()).isNaN();
        assertThat(unlocated.lengthMiles()).isNaN();
    }

    @Test
    void aMalformedFieldNamesLineAndColumn() throws IOException {
        Path file = Files.writeString(
                dir.resolve("d07_text_meta_2018_03_11.txt"),
                HEADER
                        + "764598\t405\tS\t7\t37\t\t22.35\t42.1\t33.9\t-118.3\t.52\tML\t5\tIMPERIAL\n"
                        + "717731\t405\tS\t7\t37\t\t10.2\t30.04\t33.8\t-118.2\t.6\tML\tfour\tWILMINGTON\n");
        assertThatThrownBy(() -> StationMetaReader.read(file))
                .isInstanceOf(BadInputException.class)
                .hasMessage(file + ", line 3, column 'Lanes': expected an integer, got 'four'");
    }

    @Test
    void aBadDirectionOrAStationListedTwiceIsAnError() throws IOException {
        Path direction = Files.writeString(
                dir.resolve("a.txt"),
                HEADER + "764598\t405\tX\t7\t37\t\t22.35\t42.1\t33.9\t-118.3\t.52\tML\t5\tIMPERIAL\n");
        assertThatThrownBy(() -> StationMetaReader.read(direction))
                .hasMessageContaining("line 2, column 'Dir': expected one of N, S, E, W");

        String line = "764598\t405\tS\t7\t37\t\t22.35\t42.1\t33.9\t-118.3\t.52\tML\t5\tIMPERIAL\n";
        Path twice = Files.writeString(dir.resolve("b.txt"), HEADER + line + line);
        assertThatThrownBy(() -> StationMetaReader.read(twice))
                .hasMessageContaining("line 3, column 'ID'")
                .hasMessageContaining("listed twice (first on line 2)");
    }

    @Test
    void aStationListedTwiceWithOtherValuesIsAnErrorNamingFileLineAndId() throws IOException {
        Path twice = Files.writeString(
                dir.resolve("d07_text_meta_2018_03_12.txt"),
                HEADER
                        + "764598\t405\tS\t7\t37\t\t22.35\t42.1\t33.9\t-118.3\t.52\tML\t5\tIMPERIAL\n"
                        + "717731\t405\tS\t7\t37\t\t10.2\t30.04\t33.8\t-118.2\t.6\tML\t4\tWILMINGTON\n"
                        + "764598\t405\tN\t7\t37\t\t22.4\t42.2\t33.9\t-118.3\t.52\tML\t4\tIMPERIAL N\n");

        assertThatThrownBy(() -> StationMetaReader.read(twice))
                .isInstanceOf(BadInputException.class)
                .hasMessage(twice + ", line 4, column 'ID': station 764598 is listed twice (first on line 2)");
    }

    @Test
    void aSyntheticLabelInUserId1MarksAGeneratedStationAndOtherUserIdsAreIgnored() throws IOException {
        Path file = Files.writeString(
                dir.resolve("d07_text_meta_2018_03_13.txt"),
                HEADER
                        + "900001\t5\tN\t7\t\t\t1.000\t1.000\t33.9\t-118.3\t\tML\t4\tSynthetic 5-N\tsynthetic:seed=7\n"
                        + "764598\t405\tS\t7\t37\t\t22.35\t42.1\t33.9\t-118.3\t.52\tML\t5\tIMPERIAL\t105\n"
                        + "717731\t405\tS\t7\t37\t\t10.2\t30.04\t33.8\t-118.2\t.6\tML\t4\tWILMINGTON\n");

        Map<Long, StationMeta> stations = StationMetaReader.read(file);

        assertThat(stations.get(900001L).syntheticSource()).isEqualTo("synthetic:seed=7");
        assertThat(stations.get(900001L).isSynthetic()).isTrue();
        assertThat(stations.get(764598L).syntheticSource()).isEmpty();
        assertThat(stations.get(717731L).isSynthetic()).isFalse();
    }

    @Test
    void aHeaderWithoutARequiredColumnIsAnError() throws IOException {
        Path file = Files.writeString(dir.resolve("c.txt"), HEADER.replace("Lanes", "Lane_Count"));
        assertThatThrownBy(() -> StationMetaReader.read(file)).hasMessageContaining("line 1, column 'Lanes'");
    }
}
