package org.itsrt.job.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.ItsJob;
import org.itsrt.job.JobIO;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --workload} and the district workload's options (docs/job.md, sections 3 and 8). */
class WorkloadSettingsTest {

    private static final Path REPO = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String MODEL = REPO.resolve("models/lstm-flow").toString();
    private static final String META = "ID\tFwy\tDir\tDistrict\tCounty\tCity\tState_PM\tAbs_PM\tLatitude\t"
            + "Longitude\tLength\tType\tLanes\tName\tUser_ID_1\tUser_ID_2\tUser_ID_3\tUser_ID_4\n"
            + "764598\t405\tS\t7\t37\t22412\t22.35\t42.1\t33.928621\t-118.368522\t.52\tML\t5\tIMPERIAL\t\t\t\t\n"
            + "717731\t405\tS\t7\t37\t\t10.2\t30.04\t33.825757\t-118.24005\t.6\tML\t4\tWILMINGTON\t\t\t\t\n";

    @TempDir
    Path dir;

    private static JobSettings parse(String... extra) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", "127.0.0.1:9092", "--model", MODEL));
        args.addAll(Arrays.asList(extra));
        return JobSettings.fromArgs(args.toArray(String[]::new));
    }

    @Test
    void theStudyIsTheDefaultAndShowsNoDistrictTopics() {
        JobSettings s = parse();
        assertThat(s.workload()).isEqualTo(Workload.STUDY);
        assertThat(s.kafka().districtTopics()).isEqualTo(DistrictTopics.DEFAULTS);
        assertThat(s.routing().hasFixedQuery()).isTrue();
        assertThat(s.asMap())
                .containsEntry("workload", "study")
                .containsEntry("origin", "764598")
                .doesNotContainKeys("predictions-topic", "requests-topic", "routes-topic");
        // Unused by the study, so not checked against its topics.
        assertThat(parse("--routes-topic", Topics.READINGS).workload()).isEqualTo(Workload.STUDY);
    }

    @Test
    void theDistrictReadsItsTopicsAndRoutesOverTheWholeGraph() throws Exception {
        Path meta = Files.writeString(dir.resolve("d07_text_meta_test.txt"), META);
        JobSettings s = parse(
                "--workload", "district",
                "--graph-meta", meta.toString(),
                "--predictions-topic", "p",
                "--requests-topic", "q",
                "--routes-topic", "r");
        assertThat(s.workload()).isEqualTo(Workload.DISTRICT);
        assertThat(s.kafka().districtTopics()).isEqualTo(new DistrictTopics("p", "q", "r"));
        assertThat(s.routing().hasFixedQuery()).isFalse();
        assertThat(s.routing().detectorIds()).containsExactly(717731, 764598);
        assertThat(s.asMap())
                .containsEntry("workload", "district")
                .containsEntry("predictions-topic", "p")
                .containsEntry("requests-topic", "q")
                .containsEntry("routes-topic", "r")
                .doesNotContainKeys("origin", "destination");
        KafkaJobIO io = KafkaJobIO.of(s);
        assertThat(io.describe(JobIO.End.PREDICTIONS)).isEqualTo("kafka: p");
        assertThat(io.describe(JobIO.End.ROUTE_REQUESTS)).isEqualTo("kafka: q");
        assertThat(io.describe(JobIO.End.ROUTES)).isEqualTo("kafka: r");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--workload          | batch            | --workload: 'batch' is neither study nor district",
                "--origin            | 764598           | --origin: the study workload's fixed query; --workload district answers route requests instead",
                "--destination       | 774445           | --destination: the study workload's fixed query",
                "--identity          | true             | --identity: replaces the study's advice and has no district counterpart",
                "--requests-topic    | its.readings     | --requests-topic: 'its.readings' is also the topic of --input-topic",
                "--predictions-topic | its.route-requests | --predictions-topic: 'its.route-requests' is also the topic of --requests-topic",
                "--routes-topic      | its.predictions  | --routes-topic: 'its.predictions' is also the topic of --predictions-topic",
                "--dead-letter-topic | its.routes       | --dead-letter-topic: 'its.routes' is also the topic of --routes-topic",
                "--routes-topic      | its routes       | --routes-topic: 'its routes' is not a legal Kafka topic name",
            })
    void aDistrictOptionThatCannotBeUsedIsNamed(String option, String value, String message) {
        String workload = option.equals("--workload") ? value : "district";
        List<String> args = new ArrayList<>(List.of("--workload", workload));
        if (!option.equals("--workload")) {
            args.addAll(List.of(option, value));
        }
        assertThatThrownBy(() -> parse(args.toArray(String[]::new)))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void aDistrictGraphThatIsNotConnectedIsRefusedBeforeTheJobStarts() throws Exception {
        // A third station alone on a freeway of its own, 200 km north: no route reaches it.
        Path meta = Files.writeString(
                dir.resolve("d07_text_meta_cut.txt"),
                META + "900001\t5\tN\t7\t37\t\t1.0\t1.0\t35.7\t-118.2\t.5\tML\t3\tALONE\t\t\t\t\n");

        assertThatThrownBy(() -> parse("--workload", "district", "--graph-meta", meta.toString()))
                .isInstanceOf(JobSettingsException.class)
                .hasMessageStartingWith("--graph-meta: " + meta.toAbsolutePath())
                .hasMessageContaining("not one connected district")
                .hasMessageContaining("900001 (5-N)");
    }

    @Test
    void eachBuildTakesOnlyItsOwnWorkload() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobSettings study = parse();
        JobSettings district = parse("--workload", "district");
        assertThatThrownBy(() -> ItsJob.build(env, district, KafkaJobIO.of(district)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--workload district: wire it with ItsJob.buildDistrict, not this method");
        assertThatThrownBy(() -> ItsJob.buildDistrict(env, study, KafkaJobIO.of(study)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--workload study: wire it with ItsJob.build, not this method");
    }
}
