package org.itsrt.job.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.PredictorOptions;
import org.itsrt.model.ReadingWindow;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class ReplayCommandTest {

    private static final Path TINY_MODEL = Path.of(System.getProperty("itsrt.repo.root", ".."))
            .resolve("its-model/src/test/resources/models/tiny-features");

    @TempDir
    static Path dir;

    static Path table;
    static List<Reading> readings;

    @BeforeAll
    static void writeTable() throws Exception {
        readings = new SyntheticGenerator(7).generate(LocalDate.of(2018, 3, 10), 2);
        table = dir.resolve("two-days.csv");
        CanonicalTable.write(table, readings);
    }

    private static int run(StringBuilder err, String... args) {
        CommandLine commandLine = ReplayCommand.commandLine();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        commandLine.setErr(new PrintWriter(bytes, true));
        int exit = commandLine.execute(args);
        err.append(bytes);
        return exit;
    }

    @ParameterizedTest
    @ValueSource(strings = {"kernel", "onnx", "linear"})
    void everyFullWindowGetsAdviceWithThePredictorsOwnPrediction(String engine) throws Exception {
        Path out = dir.resolve("out-" + engine);
        int exit = run(
                new StringBuilder(),
                "--data",
                table.toString(),
                "--model",
                TINY_MODEL.toString(),
                "--engine",
                engine,
                "--out",
                out.toString());
        assertThat(exit).isZero();

        List<String> rows = Files.readAllLines(out.resolve("advice.csv"));
        assertThat(rows.get(0)).isEqualTo(AdviceCsv.HEADER);
        // Two gap-free days of six stations across the DST change: each station's first 11
        // readings only fill its window.
        assertThat(rows).hasSize(1 + readings.size() - 6 * 11);

        // The first advice of El Segundo carries the prediction for its first twelve readings.
        List<Reading> elSegundo =
                readings.stream().filter(r -> r.stationId() == 764598).toList();
        double[] flows = new double[12];
        double[] speeds = new double[12];
        for (int i = 0; i < 12; i++) {
            flows[i] = elSegundo.get(i).flow();
            speeds[i] = elSegundo.get(i).hasSpeed() ? elSegundo.get(i).speed() : Double.NaN;
        }
        Instant newest = elSegundo.get(11).tsUtc();
        float expected;
        try (FlowPredictor predictor =
                FlowPredictors.open(TINY_MODEL, PredictorOptions.reference().withEngine(Engine.fromName(engine)))) {
            expected = predictor.predict(new ReadingWindow(flows, speeds, newest));
        }
        String[] first = rows.stream()
                .filter(r -> r.startsWith("764598," + newest))
                .findFirst()
                .orElseThrow()
                .split(",");
        assertThat(Double.parseDouble(first[3])).isCloseTo(expected, org.assertj.core.data.Offset.offset(5e-4));
        assertThat(first[4]).startsWith("764598>").endsWith(">774445");

        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary)
                .contains(
                        "engine `" + engine + "`",
                        "## Next-interval flow",
                        "## Time per reading",
                        "## Routes advised",
                        "El Segundo > ");
    }

    @Test
    void aGruBundleReplaysOnOnnxRuntime() throws Exception {
        Path gru = TINY_MODEL.resolveSibling("tiny-gru");
        Path out = dir.resolve("out-gru");
        StringBuilder err = new StringBuilder();
        int exit = run(
                err,
                "--data",
                table.toString(),
                "--model",
                gru.toString(),
                "--engine",
                "onnx",
                "--out",
                out.toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(Files.readAllLines(out.resolve("advice.csv"))).hasSize(1 + readings.size() - 6 * 11);
        assertThat(Files.readString(out.resolve("summary.md"))).contains("engine `onnx`", "tiny-gru");

        StringBuilder refused = new StringBuilder();
        assertThat(run(refused, "--data", table.toString(), "--model", gru.toString(), "--out", out.toString()))
                .isNotZero();
        assertThat(refused.toString()).contains("layer 'gru_1': a gru layer; the kernel engines run lstm and dense");
    }

    @Test
    void aStationOutsideTheStudyGraphIsRefusedNamingTheFile() throws Exception {
        List<Reading> stranger = new ArrayList<>();
        for (Reading r : readings.subList(0, 20)) {
            stranger.add(new Reading(123456, r.tsUtc(), r.flow(), r.speed(), r.pctObserved(), r.lanes(), r.source()));
        }
        Path bad = dir.resolve("stranger.csv");
        CanonicalTable.write(bad, stranger);
        StringBuilder err = new StringBuilder();
        int exit = run(
                err,
                "--data",
                bad.toString(),
                "--model",
                TINY_MODEL.toString(),
                "--out",
                dir.resolve("x").toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("stranger.csv", "station 123456");
    }

    @Test
    void aMissingModelFailsNamingTheBundleFile() {
        StringBuilder err = new StringBuilder();
        int exit = run(
                err,
                "--data",
                table.toString(),
                "--model",
                dir.resolve("no-model").toString(),
                "--out",
                dir.resolve("y").toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("no-model");
    }
}
