package org.itsrt.probe.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.probe.FailoverRun;
import org.itsrt.probe.SampleRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary.json as one type: what the probe writes is what every reader gets, and nothing less. */
class ProbeSummaryTest {

    private static final ObjectMapper TREE = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path file;
    static String written;
    static Path failover;

    @BeforeAll
    static void writeASampleRun() throws Exception {
        SampleRun.write(dir.resolve("run"), false);
        file = dir.resolve("run").resolve(RunReport.SUMMARY_JSON);
        written = Files.readString(file);
        FailoverRun.write(dir.resolve("failover"), "STOP_MS," + FailoverRun.STOP + "\n");
        failover = dir.resolve("failover").resolve(RunReport.SUMMARY_JSON);
    }

    @Test
    void roundTripsWithoutLosingAField() throws Exception {
        for (Path run : new Path[] {file, failover}) {
            ProbeSummary summary = ProbeSummary.read(run);
            Path again = dir.resolve("again.json");
            summary.write(again);

            assertThat(TREE.readTree(again.toFile())).isEqualTo(TREE.readTree(run.toFile()));
            assertThat(ProbeSummary.read(again)).isEqualTo(summary);
        }
    }

    @Test
    void readsTheFaultsWithTheirNulls() throws Exception {
        ProbeSummary summary = ProbeSummary.read(failover);

        assertThat(summary.faults().marks())
                .extracting(ProbeSummary.Fault::label)
                .containsExactly(FailoverRun.KILL, FailoverRun.STOP);
        ProbeSummary.Fault kill = summary.faults().marks().get(0);
        assertThat(kill.gapS()).isCloseTo(3.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(kill.silence()).isEqualTo(summary.faults().largestSilence());
        assertThat(kill.delayed()).isEqualTo(40);
        assertThat(kill.recoveryS()).isCloseTo(4.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(kill.duplicatedByDetector()).containsEntry("1", 10L).containsEntry("2", 10L);
        // The kill was marked over at 5.5 s (4.5 s after the first arrival); latency recovered at
        // 7.0 s, 1.5 s after that.
        assertThat(kill.endOffsetS()).isCloseTo(4.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(kill.endedAt()).isNotNull();
        assertThat(kill.recoveryAfterEndS()).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-9));
        // The stop delayed nothing: its peak has no value, written as null and read back so.
        ProbeSummary.Fault stop = summary.faults().marks().get(1);
        assertThat(stop.peakLatencyMs()).isNull();
        // A fault of one moment: no end, written as null.
        assertThat(stop.endOffsetS()).isNull();
        assertThat(stop.recoveryAfterEndS()).isNull();
        assertThat(TREE.readTree(failover.toFile()).at("/faults/marks/1").has("peak_latency_ms"))
                .isTrue();
        // The sample run had no fault: no marks, and its longest silence is one poll apart.
        ProbeSummary sample = ProbeSummary.read(file);
        assertThat(sample.faults().marks()).isEmpty();
        assertThat(sample.faults().largestSilence().lengthS())
                .isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aMissingFaultFieldFailsNamingIt() throws Exception {
        ObjectNode tree = (ObjectNode) TREE.readTree(failover.toFile());
        ((ObjectNode) tree.path("faults").path("marks").path(0)).remove("recovery_s");

        assertThatThrownBy(() -> readTree(tree))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("missing field 'recovery_s' at /faults/marks/0");
    }

    @Test
    void readsWhatTheSampleRunMeasured() throws Exception {
        ProbeSummary summary = ProbeSummary.read(file);

        assertThat(summary.format()).isEqualTo(ProbeSummary.FORMAT);
        assertThat(summary.records().measured()).isEqualTo(SampleRun.RECORDS);
        assertThat(summary.latency().fromSent().all().p50Ms())
                .isEqualTo(2.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(summary.latency().of("from_intended").steadyState()).isNotNull();
        assertThat(summary.stages().infer().count()).isEqualTo(SampleRun.RECORDS);
        assertThat(summary.sequence().total().lost()).isEqualTo(1);
        assertThat(summary.sequence().perDetector()).hasSize(3);
        assertThat(summary.slo().of("from_sent").all().violationRatio()).isNotNull();
    }

    @Test
    void aMissingFieldFailsNamingIt() throws Exception {
        ObjectNode tree = (ObjectNode) TREE.readTree(written);
        ((ObjectNode) tree.path("latency").path("from_intended").path("all")).remove("p99_ms");

        assertThatThrownBy(() -> readTree(tree))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("missing field 'p99_ms' at /latency/from_intended/all");
    }

    @Test
    void aRenamedFieldFailsNamingIt() throws Exception {
        ObjectNode tree = (ObjectNode) TREE.readTree(written);
        ObjectNode settings = (ObjectNode) tree.path("settings");
        settings.set("slo_millis", settings.remove("slo_ms"));

        // Jackson meets the fields in order: whichever of the two it notices first is named.
        assertThatThrownBy(() -> readTree(tree))
                .isInstanceOf(IOException.class)
                .hasMessageMatching(
                        "(?s).*(missing field 'slo_ms' at /settings|unknown field 'slo_millis' at /settings).*");
    }

    @Test
    void anotherFormatIsRefusedNamingBoth() throws Exception {
        ObjectNode tree = (ObjectNode) TREE.readTree(written);
        tree.put("format", "its-probe summary 1");

        assertThatThrownBy(() -> readTree(tree))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("its-probe summary 1")
                .hasMessageContaining(ProbeSummary.FORMAT);
    }

    @Test
    void aSummaryOfTheFormerVersionIsRefusedForItsFormat() throws Exception {
        // Version 4 had no warm-up and called the steady-state cut warmup_s: refused for its
        // version, not for the fields it lacks.
        ObjectNode tree = (ObjectNode) TREE.readTree(written);
        tree.put("format", "its-probe summary 4");
        tree.remove("warmup");
        ObjectNode settings = (ObjectNode) tree.path("settings");
        settings.set("warmup_s", settings.remove("steady_after_s"));

        assertThatThrownBy(() -> readTree(tree))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format 'its-probe summary 4', expected 'its-probe summary 5'");
    }

    @Test
    void anEmptyRunWritesNullsNotGaps() throws Exception {
        ProbeSummary summary = ProbeSummary.read(file);
        // The sample's readings carry no stage of the job: parse has no values, and says so with nulls.
        Path readings = dir.resolve("readings");
        SampleRun.write(readings, true);
        ProbeSummary hop = ProbeSummary.read(readings.resolve(RunReport.SUMMARY_JSON));

        assertThat(hop.stages().parse().count()).isZero();
        assertThat(hop.stages().parse().p50Us()).isNull();
        assertThat(TREE.readTree(readings.resolve(RunReport.SUMMARY_JSON).toFile())
                        .at("/stages/parse")
                        .has("p50_us"))
                .isTrue();
        assertThat(summary.stages().parse().p50Us()).isNotNull();
    }

    private static ProbeSummary readTree(ObjectNode tree) throws IOException {
        Path changed = Files.createTempFile(dir, "summary", ".json");
        TREE.writeValue(changed.toFile(), tree);
        return ProbeSummary.read(changed);
    }
}
