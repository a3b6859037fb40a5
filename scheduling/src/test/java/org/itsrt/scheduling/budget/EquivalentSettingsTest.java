package org.itsrt.scheduling.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EquivalentSettingsTest {

    @Test
    void theStudysReservationInEveryScheduler() {
        EquivalentSettings s = EquivalentSettings.of("rt-vm", 2, new Reservation(76_750, 100_000), false);
        assertThat(s.xlRtds()).isEqualTo("xl sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 0");
        // 2 x 0.7675 x 100 = 153.5: rounded half up (the study truncated it to 153).
        assertThat(s.creditCap()).isEqualTo(154);
        assertThat(s.xlCredit()).isEqualTo("xl sched-credit -d rt-vm -c 154");
        assertThat(s.cgroupV2CpuMax()).isEqualTo("153500 100000");
        assertThat(s.cgroupQuotaUs()).isEqualTo(153_500);
        assertThat(s.cgroupPeriodUs()).isEqualTo(100_000);
        assertThat(s.cgroupProblem()).isNull();
        assertThat(s.deadlineRuntimeNs()).isEqualTo(76_750_000);
        assertThat(s.deadlineDeadlineNs()).isEqualTo(100_000_000);
        assertThat(s.deadlinePeriodNs()).isEqualTo(100_000_000);
        assertThat(s.chrt()).isEqualTo("chrt -d -T 76750000 -P 100000000 -D 100000000 -p 0 TID");
        assertThat(s.deadlineProblem()).isNull();
        // The Compose stack's TaskManager container takes the cgroup bandwidth as is.
        ComposeCpu compose = s.compose();
        assertThat(compose.cpuPeriodUs()).isEqualTo(s.cgroupPeriodUs());
        assertThat(compose.cpuQuotaUs()).isEqualTo(s.cgroupQuotaUs());
        assertThat(compose.cpuShares()).isNull();
        assertThat(compose.settings()).isEqualTo("cpu_period 100000, cpu_quota 153500");
        assertThat(compose.dockerUpdate("tm1")).isEqualTo("docker update --cpu-period 100000 --cpu-quota 153500 tm1");
        assertThat(compose.servicesYaml())
                .isEqualTo("services:\n  taskmanager:\n    cpu_period: 100000\n    cpu_quota: 153500\n");
    }

    @Test
    void withoutALimitTheContainerGetsCfssDefaultWeightAndAnUnlimitedQuota() {
        ComposeCpu none = ComposeCpu.unlimited();
        assertThat(none.limited()).isFalse();
        assertThat(none.settings()).isEqualTo("cpu_shares 1024");
        // -1, not 0: docker update ignores 0 and would keep a previous quota.
        assertThat(none.dockerUpdate("tm1")).isEqualTo("docker update --cpu-quota -1 --cpu-shares 1024 tm1");
        assertThat(none.servicesYaml()).isEqualTo("services:\n  taskmanager:\n    cpu_shares: 1024\n");
        assertThat(ComposeCpu.rowFile("rtds-76750")).isEqualTo("docker/rows/rtds-76750.yaml");
    }

    @Test
    void extratimeAndOtherDomains() {
        EquivalentSettings s = EquivalentSettings.of("vm7", 4, new Reservation(500, 1_000), true);
        assertThat(s.xlRtds()).isEqualTo("xl sched-rtds -d vm7 -v all -p 1000 -b 500 -e 1");
        assertThat(s.xlCredit()).isEqualTo("xl sched-credit -d vm7 -c 200");
        assertThat(s.cgroupV2CpuMax()).isEqualTo("2000 1000");
    }

    @Test
    void aTinyShareStillCapsCreditBecauseCapZeroMeansNoCap() {
        EquivalentSettings s = EquivalentSettings.of("rt-vm", 1, new Reservation(10, 10_000), false);
        assertThat(s.creditCap()).isEqualTo(1);
    }

    @Test
    void settingsLinuxCannotExpressComeWithTheReasonInsteadOfACommand() {
        // A 100 us period: fine for Xen and SCHED_DEADLINE, below cgroup bandwidth's 1 ms minimum period.
        EquivalentSettings shortPeriod = EquivalentSettings.of("rt-vm", 2, new Reservation(50, 100), false);
        assertThat(shortPeriod.cgroupProblem()).contains("period of 1000..1000000 us, got 100 us");
        assertThat(shortPeriod.deadlineProblem()).isNull();
        assertThat(shortPeriod.compose().problem()).isEqualTo(shortPeriod.cgroupProblem());
        assertThatThrownBy(() -> shortPeriod.compose().servicesYaml()).hasMessageContaining("not expressible");
        // A 10 s period: past SCHED_DEADLINE's default maximum of 4.19 s and cgroup's 1 s.
        EquivalentSettings longPeriod =
                EquivalentSettings.of("rt-vm", 2, new Reservation(5_000_000, 10_000_000), false);
        assertThat(longPeriod.deadlineProblem()).contains("period of 100..4194304 us");
        assertThat(longPeriod.cgroupProblem()).contains("got 10000000 us");
        // A 50 us period: under SCHED_DEADLINE's default minimum of 100 us.
        assertThat(EquivalentSettings.of("rt-vm", 1, new Reservation(20, 50), false)
                        .deadlineProblem())
                .contains("period of 100..");
    }

    @Test
    void reservationsXenWouldRefuseAreNotRendered() {
        assertThatThrownBy(() -> EquivalentSettings.of("rt-vm", 2, new Reservation(5, 100), false))
                .hasMessageContaining("below Xen RTDS's minimum of 10 us");
        assertThatThrownBy(() -> EquivalentSettings.of("rt-vm", 0, new Reservation(50, 100), false))
                .hasMessageContaining("vcpus must be >= 1");
    }
}
