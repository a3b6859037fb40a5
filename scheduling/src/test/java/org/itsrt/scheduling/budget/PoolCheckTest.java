package org.itsrt.scheduling.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolCheckTest {

    private static final Reservation STUDY = new Reservation(76_750, 100_000);

    private static List<BigDecimal> us(String... values) {
        return Arrays.stream(values).map(BigDecimal::new).toList();
    }

    @Test
    void theStudysRtVmWithDom0FitsAnEightCpuPool() throws BudgetRefusal {
        PoolCheck.Result r = PoolCheck.check(
                "rt-vm",
                STUDY,
                2,
                new PoolCheck.Pool(8, List.of(), PoolCheck.DEFAULT_DOM0_VCPUS, PoolCheck.DEFAULT_DOM0_UTILIZATION));
        assertThat(r.total()).isEqualByComparingTo("1.935");
        assertThat(r.spare()).isEqualByComparingTo("6.065");
        assertThat(r.entries()).extracting(PoolCheck.Entry::name).containsExactly("rt-vm", "Dom0");
        assertThat(r.globalEdfBound()).isEqualByComparingTo("2.6275"); // 8 - 7 x 0.7675
        assertThat(r.globalEdfBoundHolds()).isTrue();
    }

    @Test
    void aSumOverThePoolIsRefusedWithTheExcess() {
        assertThatThrownBy(() ->
                        PoolCheck.check("rt-vm", STUDY, 2, new PoolCheck.Pool(2, us("0.6"), 1, new BigDecimal("0.4"))))
                .isInstanceOf(BudgetRefusal.class)
                .hasMessageContaining("sum to 2.535 CPUs")
                .hasMessageContaining("rt-vm 2 x 0.7675 = 1.535, Dom0 1 x 0.4 = 0.4, other #1 1 x 0.6 = 0.6")
                .hasMessageContaining("--pool-cpus is 2: over by 0.535 CPUs")
                .hasMessageContaining("1 more CPU(s)")
                .extracting(e -> ((BudgetRefusal) e).constraint())
                .isEqualTo("pool-sum");
    }

    @Test
    void aVcpuAskingMoreThanOneCpuIsRefused() {
        assertThatThrownBy(() -> PoolCheck.check(
                        "rt-vm", STUDY, 2, new PoolCheck.Pool(16, us("0.5", "1.2"), 0, BigDecimal.ZERO)))
                .isInstanceOf(BudgetRefusal.class)
                .hasMessageContaining("other #2 asks utilization 1.2 per vCPU, over the 1.0 a vCPU can use")
                .hasMessageContaining("by 0.2")
                .extracting(e -> ((BudgetRefusal) e).constraint())
                .isEqualTo("vcpu-utilization");
        assertThatThrownBy(() ->
                        PoolCheck.check("rt-vm", STUDY, 2, new PoolCheck.Pool(16, List.of(), 2, new BigDecimal("1.5"))))
                .hasMessageContaining("Dom0 asks utilization 1.5");
    }

    @Test
    void dom0CanBeLeftOutAndAFullPoolIsStillSchedulable() throws BudgetRefusal {
        PoolCheck.Result r = PoolCheck.check(
                "rt-vm",
                new Reservation(100, 100),
                2,
                new PoolCheck.Pool(2, List.of(), 0, PoolCheck.DEFAULT_DOM0_UTILIZATION));
        assertThat(r.entries()).extracting(PoolCheck.Entry::name).containsExactly("rt-vm");
        assertThat(r.spare()).isEqualByComparingTo("0");
        // The bound is sufficient only: two full vCPUs on two CPUs are schedulable, yet 2 > 2 - 1 x 1.
        assertThat(r.globalEdfBoundHolds()).isFalse();
    }

    @Test
    void theGlobalEdfBoundIsInformationOnly() throws BudgetRefusal {
        // 0.9 + 0.9 + 0.1 = 1.9 <= 2 CPUs, but 1.9 > 2 - 1 x 0.9 = 1.1: accepted, with the bound not holding.
        PoolCheck.Result r = PoolCheck.check(
                "rt-vm", new Reservation(90, 100), 2, new PoolCheck.Pool(2, us("0.1"), 0, BigDecimal.ZERO));
        assertThat(r.total()).isEqualByComparingTo("1.9");
        assertThat(r.globalEdfBound()).isEqualByComparingTo("1.1");
        assertThat(r.globalEdfBoundHolds()).isFalse();
    }
}
