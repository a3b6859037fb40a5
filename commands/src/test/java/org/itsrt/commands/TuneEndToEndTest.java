package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.itsrt.experiments.report.TuneReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A short search on the real pipeline under real cgroup budgets: the quick experiment's range
 * (6250..100000 us every 100 ms) at a resolution that leaves two or three points, one 600-record
 * run each.
 */
class TuneEndToEndTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final long MIN = 6_250;
    private static final long MAX = 100_000;

    record Point(long budgetUs, String verdict, int exitCode, String folder) {}

    @Test
    void aShortSearchTriesPointsThatFollowFromItsVerdictsAndReportsThem(@TempDir Path dir) throws Exception {
        CgroupBandwidth.assumeAvailable();
        Path out = dir.resolve("tune");
        StringWriter console = new StringWriter();
        StringWriter errors = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand());
        cli.setOut(new PrintWriter(console, true));
        cli.setErr(new PrintWriter(errors, true));

        // An SLO loose enough that the whole range may pass: the search must then try the lower bound.
        int exit = cli.execute(
                ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                "--resolution-us",
                "50000",
                "--repetitions",
                "1",
                "--max-repetitions",
                "1",
                "--records",
                "600",
                "--warmup",
                "0s",
                "--slo-p99",
                "1000",
                "--slo-max",
                "5000",
                "--out",
                out.toString(),
                "--data",
                ROOT.resolve("data/sample/synthetic-readings.csv").toString(),
                "--model",
                ROOT.resolve("models/lstm-flow").toString());

        String text = console + "\n" + errors;
        List<Point> points = points(out.resolve(TuneReport.CSV));
        assertThat(points).as(text).isNotEmpty().hasSizeLessThanOrEqualTo(3);
        assertThat(points).as("every run measured: %s", text).allMatch(p -> p.exitCode() == 0);
        // The upper bound first; then each point inside the bracket the verdicts before it left.
        assertThat(points.get(0).budgetUs()).isEqualTo(MAX);
        long passing = Long.MAX_VALUE;
        long failing = Long.MIN_VALUE;
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            if (i > 0) {
                assertThat(passing).as("point %d follows a pass", i + 1).isNotEqualTo(Long.MAX_VALUE);
                assertThat(p.budgetUs())
                        .as("point %d", i + 1)
                        .isLessThan(passing)
                        .isGreaterThan(failing)
                        .isGreaterThanOrEqualTo(MIN);
            }
            if (p.budgetUs() == MIN) {
                assertThat(failing)
                        .as("the lower bound is tried only while nothing failed")
                        .isEqualTo(Long.MIN_VALUE);
            }
            if (p.verdict().equals("pass")) {
                passing = p.budgetUs();
            } else {
                assertThat(p.verdict()).isEqualTo("fail");
                failing = p.budgetUs();
            }
        }
        // The search ends where the verdicts say it must.
        boolean boundedBelow = failing != Long.MIN_VALUE || passing == MIN;
        assertThat(passing == Long.MAX_VALUE || boundedBelow && passing - Math.max(failing, MIN) <= 50_000)
                .as("ended with the bracket within the resolution: %s", points)
                .isTrue();

        String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
        OptionalLong smallest = points.stream()
                .filter(p -> p.verdict().equals("pass"))
                .mapToLong(Point::budgetUs)
                .min();
        if (smallest.isPresent()) {
            assertThat(exit).as(text).isZero();
            assertThat(md)
                    .contains("Smallest budget that meets the SLO: " + smallest.getAsLong() + " us every 100000 us");
        } else {
            assertThat(exit).as(text).isEqualTo(1);
            assertThat(md).contains("No budget in the range meets the SLO");
        }
        assertThat(md)
                .contains("## Every point, in the order tried")
                .contains("## Environment")
                .contains("cgroup version");
        assertThat(out.resolve("base.yaml"))
                .hasSameTextualContentAs(ROOT.resolve("experiments/linux-budgets-quick.yaml"));
        assertThat(Files.exists(out.resolve(TuneReport.PLOT + ".png"))).isEqualTo(points.size() >= 2);

        // Each run: the point's budget on the cluster, every record measured, the group gone afterwards.
        ObjectMapper json = new ObjectMapper();
        for (Point p : points) {
            Path run = out.resolve(p.folder());
            JsonNode applied = json.readTree(run.resolve("applied.json").toFile());
            assertThat(applied.at("/facts/quota_us").asLong()).as(p.folder()).isEqualTo(2 * p.budgetUs());
            assertThat(json.readTree(run.resolve("probe/summary.json").toFile())
                            .at("/records/measured")
                            .asLong())
                    .isEqualTo(600);
            for (JsonNode group : applied.at("/facts/cgroup_dirs")) {
                assertThat(Path.of(group.asText())).doesNotExist();
            }
        }
    }

    /** points.csv, one run per point here. */
    private static List<Point> points(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(","));
        List<Point> points = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            Path folder = Path.of(cells[header.indexOf("folder")].replace("\"", ""));
            points.add(new Point(
                    Long.parseLong(cells[header.indexOf("budget_us")]),
                    cells[header.indexOf("point_verdict")],
                    Integer.parseInt(cells[header.indexOf("exit_code")]),
                    csv.getParent().relativize(folder).toString()));
        }
        return points;
    }
}
