package org.itsrt.scheduling.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyRowsTest {

    private static final String HEADER =
            "row\tsched\tpool\tperiod_us\tbudget_us\textratime\tweight\tcap\tsource\tstudy_max_ms";

    @Test
    void theRepositorysRowsAreTheStudysTables() {
        StudyRows rows = StudyRows.read(ProjectPaths.locate().studyRows());

        assertThat(rows.names())
                .containsExactly(
                        "rtds-100000",
                        "rtds-80000",
                        "rtds-77500",
                        "rtds-76750",
                        "rtds-76000",
                        "rtds-75000",
                        "credit-nocap",
                        "credit-cap153",
                        "credit2",
                        "default-rtds",
                        "default-credit",
                        "default-credit2");
        StudyRow best = rows.row("rtds-76750");
        assertThat(best.sched()).isEqualTo(StudyRow.Sched.RTDS);
        assertThat(best.pool()).isEqualTo("rt-rtds");
        assertThat(best.rtds()).isEqualTo(new Reservation(76_750, 100_000));
        assertThat(best.extratime()).isFalse();
        assertThat(best.origin()).isEqualTo("Table 4 of the study");
        assertThat(best.studyMaxMs()).isEqualByComparingTo("49.32");
        assertThat(best.xl("rt-vm")).isEqualTo("xl sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 0");

        StudyRow capped = rows.row("credit-cap153");
        assertThat(capped.weight()).isEqualTo(256);
        assertThat(capped.cap()).isEqualTo(153);
        assertThat(capped.xl("rt-vm")).isEqualTo("xl sched-credit -d rt-vm -w 256 -c 153");
        assertThat(rows.row("default-rtds").xenDefault()).isTrue();
        assertThat(rows.row("default-rtds").studyMaxMs()).isNull();
        assertThat(rows.row("default-rtds").extratime()).isTrue();
    }

    @Test
    void eachRowsReservation() {
        StudyRows rows = StudyRows.read(ProjectPaths.locate().studyRows());

        // RTDS: the row's budget per vCPU, whatever the vCPUs.
        assertThat(rows.row("rtds-76750").reservation(2)).contains(new Reservation(76_750, 100_000));
        assertThat(rows.row("rtds-76750").reservation(4)).contains(new Reservation(76_750, 100_000));
        // A Credit cap: 153% of one CPU for the whole domain over 100 ms, split over the vCPUs.
        assertThat(rows.row("credit-cap153").capQuotaUs()).isEqualTo(153_000);
        assertThat(rows.row("credit-cap153").reservation(2)).contains(new Reservation(76_500, 100_000));
        assertThat(rows.row("credit-cap153").reservation(4)).contains(new Reservation(38_250, 100_000));
        // No cap: a share only, no limit.
        for (String name : new String[] {"credit-nocap", "credit2", "default-credit", "default-credit2"}) {
            assertThat(rows.row(name).limited()).as(name).isFalse();
            assertThat(rows.row(name).reservation(2)).as(name).isEmpty();
        }
        assertThatThrownBy(() -> rows.row("credit-cap153").reservation(7))
                .hasMessageContaining("row credit-cap153: cap 153 is 153000 us every 100000 us")
                .hasMessageContaining("over 7 vCPUs");
        assertThatThrownBy(() -> rows.row("credit-cap153").reservation(1))
                .hasMessageContaining("more than 1 vCPU(s) can use (at most 100)");
    }

    @Test
    void anUnknownRowListsTheRows(@TempDir Path dir) throws IOException {
        Path file = write(dir, HEADER, "r1\trtds\t-\t1000\t500\t0\t-\t-\tx\t-", "r2\tcredit\t-\t-\t-\t-\t256\t0\tx\t-");

        assertThatThrownBy(() -> StudyRows.read(file).row("r3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown row 'r3' (rows in " + file + ": r1, r2)");
    }

    @Test
    void mistakesNameTheFileAndTheLine(@TempDir Path dir) throws IOException {
        String rtds = "\trtds\trt-rtds\t";
        expectRefused(
                dir,
                "rows.tsv:3: row r1: budget_us 120000 exceeds period_us 100000",
                "r1" + rtds + "100000\t120000\t0\t-\t-\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: extratime '-': expected 0 or 1",
                "r1" + rtds + "100000\t80000\t-\t-\t-\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: period_us 'x': expected a whole number",
                "r1" + rtds + "x\t80000\t0\t-\t-\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: budget 5 us is below Xen RTDS's minimum of 10 us",
                "r1" + rtds + "100\t5\t0\t-\t-\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: weight and cap: expected '-' for rtds",
                "r1" + rtds + "100000\t80000\t0\t256\t-\tx\t-");
        expectRefused(
                dir, "rows.tsv:3: row r1: weight '0': expected 1..65535", "r1\tcredit\trt-credit\t-\t-\t-\t0\t0\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: cap '-1': expected a percentage",
                "r1\tcredit\trt-credit\t-\t-\t-\t256\t-1\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: period_us, budget_us and extratime: expected '-' for credit2",
                "r1\tcredit2\trt-credit2\t100\t-\t-\t256\t0\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: sched 'bvt': expected rtds, credit or credit2",
                "r1\tbvt\tp\t-\t-\t-\t256\t0\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:3: row r1: study_max_ms 'slow': expected milliseconds",
                "r1\tcredit\tp\t-\t-\t-\t256\t0\tx\tslow");
        expectRefused(
                dir,
                "rows.tsv:3: row 'r1': expected 10 tab-separated columns, got 9",
                "r1\tcredit\tp\t-\t-\t-\t256\t0\tx");
        expectRefused(
                dir, "rows.tsv:3: row '../r1': expected a name of letters", "../r1\tcredit\tp\t-\t-\t-\t256\t0\tx\t-");
        expectRefused(
                dir,
                "rows.tsv:4: row 'r1' appears twice",
                "r1\tcredit\tp\t-\t-\t-\t256\t0\tx\t-",
                "r1\tcredit\tp\t-\t-\t-\t256\t0\tx\t-");
    }

    @Test
    void aFileWithoutItsHeaderOrRowsIsRefused(@TempDir Path dir) throws IOException {
        Path spaces = write(dir, "# comment", "row sched pool");
        assertThatThrownBy(() -> StudyRows.read(spaces))
                .hasMessage(spaces + ":2: expected the header line '" + String.join(" ", StudyRows.COLUMNS)
                        + "' (tab-separated)");
        Path headerOnly = write(dir, "# comment", HEADER);
        assertThatThrownBy(() -> StudyRows.read(headerOnly)).hasMessage(headerOnly + ": no rows");
        Path empty = write(dir, "# nothing");
        assertThatThrownBy(() -> StudyRows.read(empty)).hasMessage(empty + ": no header line");
        Path missing = dir.resolve("absent.tsv");
        assertThatThrownBy(() -> StudyRows.read(missing)).hasMessage(missing + ": no such rows file");
    }

    private static void expectRefused(Path dir, String message, String... rows) throws IOException {
        String[] lines = new String[rows.length + 2];
        lines[0] = "# The header comes after comments, as in the repository's file.";
        lines[1] = HEADER;
        System.arraycopy(rows, 0, lines, 2, rows.length);
        Path file = write(dir, lines);
        assertThatThrownBy(() -> StudyRows.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(dir + "/" + message);
    }

    private static Path write(Path dir, String... lines) throws IOException {
        return Files.write(dir.resolve("rows.tsv"), java.util.List.of(lines));
    }
}
