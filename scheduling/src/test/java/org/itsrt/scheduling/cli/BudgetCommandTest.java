package org.itsrt.scheduling.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BudgetCommandTest {

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        CommandLine cmd = BudgetCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theRuleWithAPoolPrintsEveryCommand() {
        Run r = run("--utilization", "0.7675", "--max-latency-us", "50000", "--pool-cpus", "8");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("rt-vm: 2 vCPU(s), each a budget of 77364 us every 100800 us (utilization 0.7675)")
                .contains("2 x (1 - 0.7675) x 100800 = 46872 us <= 50000 us")
                .contains("worst-case scheduling delay 2(T-C) = 46872 us")
                .contains("pool: 8 CPUs; rt-vm 2 x 0.7675 = 1.535, Dom0 1 x 0.4 = 0.4; total 1.935, spare 6.065")
                .contains("xl sched-rtds -d rt-vm -v all -p 100800 -b 77364 -e 0")
                .contains("xl sched-credit -d rt-vm -c 154")
                .contains("cpu.max \"154728 100800\"")
                .contains("cpu.cfs_quota_us 154728, cpu.cfs_period_us 100800")
                .contains("chrt -d -T 77364000 -P 100800000 -D 100800000 -p 0 TID")
                .contains("Docker Compose   services.taskmanager: cpu_period 100800, cpu_quota 154728   (on a "
                        + "running stack: docker update --cpu-period 100800 --cpu-quota 154728 CONTAINER)");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aStudyRowTakesItsBudgetAndNamesItsOverrideFile() {
        Run r = run("--row", "rtds-76750");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .startsWith("row rtds-76750 (xen-configs/study-rows.tsv): Table 4 of the study, Xen RTDS in cpupool "
                        + "rt-rtds: period 100000 us, budget 76750 us, extratime 0; the study's max latency 49.32 ms\n")
                .contains("rt-vm: 2 vCPU(s), each a budget of 76750 us every 100000 us (utilization 0.7675)")
                .contains("xl sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 0")
                .contains("cpu.max \"153500 100000\"")
                .contains("Docker Compose   services.taskmanager: cpu_period 100000, cpu_quota 153500   "
                        + "(docker/rows/rtds-76750.yaml; on a running stack: docker update --cpu-period 100000 "
                        + "--cpu-quota 153500 CONTAINER)");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aCreditCapIsBandwidthOverTheCfsPeriodForTheWholeContainer() throws Exception {
        Run r = run("--row", "credit-cap153", "--format", "json");
        assertThat(r.code()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.at("/row/name").asText()).isEqualTo("credit-cap153");
        assertThat(json.at("/row/source").asText()).isEqualTo("Table 5");
        assertThat(json.at("/row/cap").asInt()).isEqualTo(153);
        assertThat(json.at("/budget_us").asLong()).isEqualTo(76_500);
        assertThat(json.at("/period_us").asLong()).isEqualTo(100_000);
        // The round trip holds: the bandwidth's Credit cap is the row's.
        assertThat(json.at("/xen/credit_cap").asInt()).isEqualTo(153);
        assertThat(json.at("/linux/cgroup/quota_us").asLong()).isEqualTo(153_000);
        assertThat(json.at("/compose/cpu_period").asLong()).isEqualTo(100_000);
        assertThat(json.at("/compose/cpu_quota").asLong()).isEqualTo(153_000);
        assertThat(json.at("/compose/cpu_shares").isNull()).isTrue();
        assertThat(json.at("/compose/file").asText()).isEqualTo("docker/rows/credit-cap153.yaml");
        assertThat(json.at("/compose/docker_update").asText())
                .isEqualTo("docker update --cpu-period 100000 --cpu-quota 153000 CONTAINER");

        Run text = run("--row", "credit-cap153");
        assertThat(text.out())
                .contains("cap 153 as CFS bandwidth: 153% of one CPU = 153000 us every 100000 us for the whole domain, "
                        + "76500 us per vCPU; Credit's cap is a long-run share with no period of its own");
    }

    @Test
    void aRowWithoutACapHasNoLimitOnlyTheDefaultShare() throws Exception {
        Run text = run("--row", "credit-nocap");
        assertThat(text.code()).isZero();
        assertThat(text.out())
                .contains("no CPU limit: the row sets Xen Credit's weight only (256, the default, as cpu shares 1024 "
                        + "are CFS's)")
                .contains("Xen Credit       xl sched-credit -d rt-vm -w 256 -c 0   (in cpupool rt-credit)")
                .contains(
                        "Docker Compose   services.taskmanager: cpu_shares 1024   (docker/rows/credit-nocap.yaml; on a "
                                + "running stack: docker update --cpu-quota -1 --cpu-shares 1024 CONTAINER)")
                .doesNotContain("chrt");
        JsonNode json = new ObjectMapper()
                .readTree(run("--row", "credit2", "--format", "json").out());
        assertThat(json.at("/row/cpu_limit").asText()).isEqualTo("none");
        assertThat(json.at("/budget_us").isNull()).isTrue();
        assertThat(json.at("/xen/command").asText()).isEqualTo("xl sched-credit2 -d rt-vm -w 256 -c 0");
        assertThat(json.at("/compose/cpu_quota").isNull()).isTrue();
        assertThat(json.at("/compose/cpu_shares").asInt()).isEqualTo(1024);

        String yaml = run("--row", "credit2", "--format", "compose").out();
        assertThat(yaml)
                .contains("# Docker/CFS has no equivalent of Xen Credit2's scheduling")
                .contains("no CPU")
                .endsWith("services:\n  taskmanager:\n    cpu_shares: 1024\n");
    }

    @Test
    void theComposeFormatIsTheOverrideFileWithAHeaderSayingWhereItComesFrom() {
        Run r = run("--row", "rtds-76750", "--format", "compose");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .startsWith("# Study row rtds-76750 as a Docker Compose override of the TaskManager container.\n"
                        + "# From: Table 4 of the study (xen-configs/study-rows.tsv)")
                .contains(
                        "# The TaskManager container's CFS bandwidth = 2 vCPUs x 76750 us = 153500 us every 100000 us")
                .contains("# Rendered by: ./its budget --row rtds-76750 --format compose\n")
                .contains("# Use: docker compose -f docker/compose.yaml -f docker/rows/rtds-76750.yaml up\n")
                .endsWith("services:\n  taskmanager:\n    cpu_period: 100000\n    cpu_quota: 153500\n");
        assertThat(r.out().lines().filter(l -> !l.startsWith("#"))).hasSize(4);

        Run given = run("--budget-us", "76750", "--period-us", "100000", "--vcpus", "1", "--format", "compose");
        assertThat(given.out())
                .startsWith("# A CPU budget as a Docker Compose override of the TaskManager container.\n"
                        + "# From: a given budget of 76750 us every 100000 us per vCPU.\n")
                .contains(
                        "# Rendered by: ./its budget --budget-us 76750 --period-us 100000 --vcpus 1 --format compose\n")
                .endsWith("    cpu_period: 100000\n    cpu_quota: 76750\n");

        Run tooShort = run("--budget-us", "50", "--period-us", "100", "--format", "compose");
        assertThat(tooShort.code()).isEqualTo(2);
        assertThat(tooShort.err()).contains("refused (compose)").contains("period of 1000..1000000 us, got 100 us");
        assertThat(tooShort.out()).isEmpty();
    }

    @Test
    void rowsFromAnotherFile(@TempDir Path dir) throws Exception {
        Path rows = Files.write(
                dir.resolve("my rows.tsv"),
                List.of(
                        "row\tsched\tpool\tperiod_us\tbudget_us\textratime\tweight\tcap\tsource\tstudy_max_ms",
                        "half\trtds\t-\t10000\t5000\t0\t-\t-\tlab\t-"));
        Run r = run("--rows", rows.toString(), "--row", "half", "--format", "compose");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("# From: lab (" + rows + "), Xen RTDS in cpupool (the domain's current")
                .contains("# Rendered by: ./its budget --rows '" + rows + "' --row half --format compose\n")
                .contains("-f THIS-FILE.yaml")
                .doesNotContain("docker/rows/")
                .endsWith("    cpu_period: 10000\n    cpu_quota: 10000\n");

        Run unknown = run("--rows", rows.toString(), "--row", "full");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("--row: unknown row 'full' (rows in " + rows + ": half)");

        Files.writeString(rows, "row\tsched\n");
        Run bad = run("--rows", rows.toString(), "--row", "half");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).startsWith("its budget: " + rows + ":1: expected the header line");
    }

    @Test
    void aRowGoesWithoutAnotherReservation() {
        for (String[] args : List.of(
                new String[] {"--row", "rtds-76750", "--budget-us", "10", "--period-us", "100"},
                new String[] {"--row", "rtds-76750", "--utilization", "0.5", "--max-latency-us", "10"},
                new String[] {"--row", "rtds-76750", "--extratime"},
                new String[] {"--row", "rtds-76750", "--periods-us", "100000"})) {
            Run r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).contains("--row takes the reservation from the row");
        }
        assertThat(run("--rows", "x.tsv", "--budget-us", "10", "--period-us", "100")
                        .err())
                .contains("--rows names the file --row reads: give --row too");
        Run unknown = run("--row", "rtds-12345");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("--row: unknown row 'rtds-12345'")
                .contains("rtds-100000, rtds-80000, rtds-77500, rtds-76750, rtds-76000, rtds-75000, credit-nocap, "
                        + "credit-cap153, credit2, default-rtds, default-credit, default-credit2)");
        assertThat(run("--row", "credit-nocap", "--pool-cpus", "2").err())
                .contains("row credit-nocap has no CPU limit: --pool-cpus has no reservation to check");
        Run pool = run("--row", "rtds-100000", "--pool-cpus", "2");
        assertThat(pool.code()).isEqualTo(2);
        assertThat(pool.err()).contains("refused (pool-sum): row rtds-100000:");
    }

    @Test
    void directBudgetAsJson() throws Exception {
        Run r = run(
                "--budget-us",
                "76750",
                "--period-us",
                "100000",
                "--extratime",
                "--format",
                "json",
                "--pool-cpus",
                "2",
                "--dom0-vcpus",
                "0");
        assertThat(r.code()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("budget_us").asLong()).isEqualTo(76_750);
        assertThat(json.get("period_us").asLong()).isEqualTo(100_000);
        assertThat(json.get("utilization").decimalValue()).isEqualByComparingTo("0.7675");
        assertThat(json.get("worst_case_delay_us").asLong()).isEqualTo(46_500);
        assertThat(json.get("rule").isNull()).isTrue();
        assertThat(json.at("/pool/total").decimalValue()).isEqualByComparingTo("1.535");
        assertThat(json.at("/pool/entries").size()).isEqualTo(1);
        assertThat(json.at("/xen/rtds").asText()).isEqualTo("xl sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 1");
        assertThat(json.at("/xen/credit_cap").asInt()).isEqualTo(154);
        assertThat(json.at("/linux/cgroup/v2_cpu_max").asText()).isEqualTo("153500 100000");
        assertThat(json.at("/linux/cgroup/v1_cpu_cfs_quota_us").asLong()).isEqualTo(153_500);
        assertThat(json.at("/linux/sched_deadline/runtime_ns").asLong()).isEqualTo(76_750_000);
        assertThat(json.at("/linux/sched_deadline/command").asText())
                .isEqualTo("chrt -d -T 76750000 -P 100000000 -D 100000000 -p 0 TID");
    }

    @Test
    void refusalsExitWith2AndNameTheConstraint() {
        Run latency = run("--utilization", "0.9", "--max-latency-us", "1");
        assertThat(latency.code()).isEqualTo(2);
        assertThat(latency.err()).contains("refused (latency)").contains("is 2 us");
        assertThat(latency.out()).isEmpty();

        Run pool = run("--budget-us", "76750", "--period-us", "100000", "--pool-cpus", "2", "--other", "0.6");
        assertThat(pool.code()).isEqualTo(2);
        assertThat(pool.err()).contains("refused (pool-sum)").contains("over by 0.535 CPUs");

        Run vcpu = run("--budget-us", "50000", "--period-us", "100000", "--pool-cpus", "4", "--other", "1.5");
        assertThat(vcpu.code()).isEqualTo(2);
        assertThat(vcpu.err()).contains("refused (vcpu-utilization)").contains("other #1 asks utilization 1.5");

        Run xen = run("--budget-us", "5", "--period-us", "100");
        assertThat(xen.code()).isEqualTo(2);
        assertThat(xen.err()).contains("refused (xen-limits)").contains("minimum of 10 us");
    }

    @Test
    void usageErrorsNameTheOption() {
        assertThat(run("--utilization", "0.5").err()).contains("--utilization and --max-latency-us go together");
        assertThat(run("--utilization", "0.5", "--max-latency-us", "10", "--budget-us", "5", "--period-us", "10")
                        .err())
                .contains("give either --utilization");
        assertThat(run("--utilization", "1.5", "--max-latency-us", "10").err())
                .contains("--utilization must be in (0, 1]");
        assertThat(run("--utilization", "0.5", "--max-latency-us", "10", "--periods-us", "5")
                        .err())
                .contains("--periods-us: candidate period(s) [5] us");
        assertThat(run("--budget-us", "10", "--period-us", "100", "--other", "0.5")
                        .err())
                .contains("give --pool-cpus too");
        assertThat(run("--budget-us", "10", "--period-us", "100", "--format", "yaml")
                        .err())
                .contains("--format must be text, json or compose");
        assertThat(run("--budget-us", "10", "--period-us", "100", "--format", "yaml")
                        .code())
                .isEqualTo(2);
    }

    @Test
    void applyHoldsForADurationInTheSharedSyntaxAndRefusesGarbageNamingTheOption() {
        Run garbage = run(
                "apply",
                "--backend",
                "linux-cgroup",
                "--pid",
                "1",
                "--budget-us",
                "1000",
                "--period-us",
                "10000",
                "--for",
                "soon");
        assertThat(garbage.code()).isEqualTo(2);
        assertThat(garbage.err()).contains("--for").contains("soon");
        Run negative = run(
                "apply",
                "--backend",
                "linux-cgroup",
                "--pid",
                "1",
                "--budget-us",
                "1000",
                "--period-us",
                "10000",
                "--seconds",
                "-3");
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.err()).contains("--seconds");
    }

    @Test
    void applyTakesAStudyRowAndRefusesOneWithoutALimitOrBesideABudgetBeforeTouchingTheProcess() {
        // pid 1 is never budgeted: each of these fails while reading the options.
        Run unlimited = run("apply", "--backend", "linux-cgroup", "--pid", "1", "--row", "credit2");
        assertThat(unlimited.code()).isEqualTo(2);
        assertThat(unlimited.err())
                .contains("--row credit2 has no CPU limit (weight 256, cap 0 (none)): there is no budget to apply");
        Run both = run("apply", "--backend", "linux-cgroup", "--pid", "1", "--row", "rtds-76750", "--budget-us", "5");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--row takes the reservation from the row");
        Run unknown = run("apply", "--backend", "linux-cgroup", "--pid", "1", "--row", "rtds-1");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("--row: ").contains("rtds-1");
        Run neither = run("apply", "--backend", "linux-cgroup", "--pid", "1");
        assertThat(neither.code()).isEqualTo(2);
        assertThat(neither.err()).contains("--backend linux-cgroup needs --budget-us and --period-us, or --row");
    }
}
