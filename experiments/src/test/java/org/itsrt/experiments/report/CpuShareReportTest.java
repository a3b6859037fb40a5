package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.scheduling.budget.StudyRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shares report from windows written as ./its xen shares writes them. */
class CpuShareReportTest {

    @TempDir
    Path dir;

    private static final String HEADER =
            "place\trepetition\trow\tsched\tparameters\tvcpus\texpected_cpus\tmeasured_cpus\twindow_s\n";

    private static final String ROWS = "row\tsched\tpool\tperiod_us\tbudget_us\textratime\tweight\tcap\tsource\t"
            + "study_max_ms\n"
            + "rtds-76750\trtds\trt-rtds\t100000\t76750\t0\t-\t-\tTable 4\t49.32\n"
            + "credit-cap153\tcredit\trt-credit\t-\t-\t-\t256\t153\tTable 5\t1040.94\n";

    private StudyRows studyRows() throws Exception {
        return StudyRows.read(Files.writeString(dir.resolve("rows.tsv"), ROWS));
    }

    private Path shares(String... lines) throws Exception {
        return Files.writeString(dir.resolve("shares.tsv"), HEADER + String.join("\n", lines) + "\n");
    }

    private static String window(String place, int rep, String row, String sched, double expected, double measured) {
        String parameters = sched.equals("rtds") ? "period 100000 us, budget 76750 us, extratime 0" : "cap 153";
        return String.join("\t", place, "" + rep, row, sched, parameters, "2", "" + expected, "" + measured, "20");
    }

    @Test
    void aRowOffWhatItAllowsIsNamedFirstWithItsPlaceAndTheTableHoldsMeanAndSpreadPerPlace() throws Exception {
        Path shares = shares(
                window("host-cgroup-v1", 1, "rtds-76750", "rtds", 1.535, 1.530),
                window("host-cgroup-v1", 2, "rtds-76750", "rtds", 1.535, 1.540),
                window("xen-tcg", 1, "rtds-76750", "rtds", 1.535, 1.55),
                window("xen-tcg", 2, "rtds-76750", "rtds", 1.535, 1.57),
                window("host-cgroup-v1", 1, "credit-cap153", "credit", 1.53, 1.52),
                // Credit's cap held loosely: 1.9 of 1.53 is 24 % over, outside 10 % + 0.05.
                window("xen-tcg", 1, "credit-cap153", "credit", 1.53, 1.9));

        String verdict = CpuShareReport.write(shares, dir.resolve("out"), studyRows());

        assertThat(verdict)
                .isEqualTo("**1 row(s) off what they allow (by more than 10 % + 0.05 CPU):** credit-cap153 on Xen 4.17 "
                        + "under QEMU TCG: 1.900 CPUs of 1.530 allowed (+24 %).");
        String md = Files.readString(dir.resolve("out").resolve(CpuShareReport.MARKDOWN));
        // The lab's column comes first although the host's windows came first in the file.
        assertThat(md)
                .contains("| allows (CPUs) | Xen 4.17 under QEMU TCG | this host, cgroup v1 quota |")
                .contains("| rtds-76750 | Table 4, max 49.32 ms | rtds | period 100000 us, budget 76750 us, "
                        + "extratime 0 | 1.535 | 1.560 (1.550-1.570), 2 | 1.535 (1.530-1.540), 2 |")
                .contains("| credit-cap153 | Table 5, max 1040.94 ms | credit | cap 153 | 1.530 | 1.900 (1.900-1.900), "
                        + "1 **off** | 1.520 (1.520-1.520), 1 |");
        assertThat(Files.readAllLines(dir.resolve("out").resolve(CpuShareReport.CSV)))
                .contains("credit-cap153,credit,\"cap 153\",1.530,xen-tcg,1,1.900,1.900,1.900,1.2418");
        assertThat(dir.resolve("out").resolve(CpuShareReport.PLOT + ".png")).isNotEmptyFile();
    }

    @Test
    void rowsWithinTheBandEverywhereSaySo() throws Exception {
        Path shares = shares(window("xen-tcg", 1, "rtds-76750", "rtds", 1.535, 1.60));

        assertThat(CpuShareReport.write(shares, dir.resolve("out"), studyRows()))
                .isEqualTo("**Every row's mean share is within 10 % + 0.05 CPU of what the row allows, at every "
                        + "place.**");
    }

    @Test
    void aTableThatIsNotSharesIsRefusedNamingFileAndLine() throws Exception {
        Path wrongHeader = Files.writeString(dir.resolve("other.tsv"), "row\tshare\nrtds\t1\n");
        assertThatThrownBy(() -> CpuShareReport.write(wrongHeader, dir, studyRows()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(wrongHeader + ":1: expected the header line 'place repetition row");
        Path badNumber =
                shares(window("xen-tcg", 1, "rtds-76750", "rtds", 1.535, 1.5).replace("1.5\t20", "lots\t20"));
        assertThatThrownBy(() -> CpuShareReport.write(badNumber, dir, studyRows()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(badNumber + ":2: expected numbers");
        Path empty = shares();
        assertThatThrownBy(() -> CpuShareReport.write(empty, dir, studyRows()))
                .hasMessage(empty + ": no measured windows");
        assertThat(List.of(dir.toFile().list())).doesNotContain(CpuShareReport.MARKDOWN);
    }
}
