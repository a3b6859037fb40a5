package org.itsrt.sched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
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
                .contains("chrt -d -T 77364000 -P 100800000 -D 100800000 -p 0 TID");
        assertThat(r.err()).isEmpty();
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
                .contains("--format must be text or json");
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
}
