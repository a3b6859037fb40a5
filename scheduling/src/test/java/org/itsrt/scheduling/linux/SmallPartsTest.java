package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.scheduling.budget.Reservation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmallPartsTest {

    @Test
    void cpuListsParseAndFormatCanonically() {
        assertThat(CpuList.format(CpuList.parse("3,0-1,2,8"))).isEqualTo("0-3,8");
        assertThat(CpuList.parse("").isEmpty()).isTrue();
        assertThatThrownBy(() -> CpuList.parse("0-x")).hasMessageContaining("'0-x' in CPU list '0-x' is not a CPU");
        assertThatThrownBy(() -> CpuList.parse("3-1")).hasMessageContaining("runs backwards");
    }

    @Test
    void cpuStatOfBothVersions() {
        CpuStat v1 = CpuStat.parse(
                "nr_periods 40\nnr_throttled 30\nthrottled_time 1500000000\nnr_bursts 0\nburst_time 0\n", -1);
        assertThat(v1).isEqualTo(new CpuStat(40, 30, 1_500_000_000L, -1));
        CpuStat v2 = CpuStat.parse("usage_usec 5\nnr_periods 4\nnr_throttled 1\nthrottled_usec 7\n", -1);
        assertThat(v2).isEqualTo(new CpuStat(4, 1, 7_000, 5_000));
        assertThat(v1.minus(new CpuStat(10, 10, 500_000_000L, -1))).isEqualTo(new CpuStat(30, 20, 1_000_000_000L, -1));
        assertThat(CpuStat.ZERO.throttledShare()).isZero();
    }

    @Test
    void bandwidthIsCheckedAgainstTheKernelsLimits() {
        CgroupBandwidth bw = CgroupBandwidth.of(new Reservation(76_750, 100_000), 2);
        assertThat(bw.quotaUs()).isEqualTo(153_500);
        assertThat(bw.cpuShare()).isEqualTo(1.535);
        assertThatThrownBy(() -> new CgroupBandwidth(500, 100_000, null, null))
                .hasMessageContaining("quota of at least 1000 us");
        assertThatThrownBy(() -> new CgroupBandwidth(5_000, 2_000_000, null, null))
                .hasMessageContaining("1000..1000000 us");
        assertThatThrownBy(() -> CgroupBandwidth.unlimited().withMems("0")).hasMessageContaining("give CPUs too");
        assertThat(CgroupBandwidth.unlimited().pinnedTo("1,0").cpus()).isEqualTo("0-1");
    }

    @Test
    void deadlineParametersFollowTheKernelsOrder() {
        DeadlineParams p = DeadlineParams.of(new Reservation(76_750, 100_000));
        assertThat(p).isEqualTo(new DeadlineParams(76_750_000, 100_000_000, 100_000_000));
        assertThat(p.utilization()).isEqualTo(0.7675);
        assertThatThrownBy(() -> new DeadlineParams(2_000, 1_000, 3_000))
                .hasMessageContaining("runtime <= deadline <= period");
        assertThatThrownBy(() -> new DeadlineParams(100, 1_000, 3_000)).hasMessageContaining("1024 ns");
    }

    @Test
    void threadsAreSelectedByNameAnywhereInIt() {
        List<Proc.ThreadInfo> threads = List.of(
                new Proc.ThreadInfo(1, "java"),
                new Proc.ThreadInfo(2, "Source: its.rea"),
                new Proc.ThreadInfo(3, "GC Thread#0"),
                new Proc.ThreadInfo(4, "C2 CompilerThre"));
        assertThat(ThreadSelector.matching("^Source: ").select(threads))
                .extracting(Proc.ThreadInfo::tid)
                .containsExactly(2L);
        assertThat(ThreadSelector.matching("Thre").select(threads))
                .extracting(Proc.ThreadInfo::tid)
                .containsExactly(3L, 4L);
        assertThat(ThreadSelector.all().select(threads)).hasSize(4);
        assertThatThrownBy(() -> ThreadSelector.matching("(")).hasMessageContaining("not a regular expression");
    }

    @Test
    void procReadsTreesNamesCgroupsAndCpuTime(@TempDir Path base) throws Exception {
        FakeCgroupV2 kernel = new FakeCgroupV2(base);
        kernel.process(10, 1, "with space) (x", "/");
        kernel.process(11, 10, "child", "/");
        kernel.process(12, 11, "grandchild", "/");
        kernel.process(13, 1, "other", "/");
        Files.writeString(kernel.proc.resolve("11/cgroup"), "4:cpu,cpuacct:/a\n3:cpuset:/b\n0::/c\n");
        Proc proc = new Proc(kernel.proc);
        assertThat(proc.descendants(10)).containsExactly(11L, 12L);
        assertThat(proc.alive(10)).isTrue();
        assertThat(proc.alive(77)).isFalse();
        assertThat(proc.cpuTicks(10)).isEqualTo(10); // utime 7 + stime 3, past a name with ") ("
        assertThat(proc.cgroups(11))
                .containsEntry("cpu", "/a")
                .containsEntry("cpuacct", "/a")
                .containsEntry("cpuset", "/b")
                .containsEntry("", "/c");
        assertThat(proc.threads(12)).containsExactly(new Proc.ThreadInfo(12, "grandchild"));
    }

    @Test
    void backendsByName() {
        Reservation r = new Reservation(20_000, 100_000);
        assertThat(LinuxBackends.byName("none", r, 2, null, null).name()).isEqualTo("none");
        assertThat(LinuxBackends.byName("linux-deadline", r, 2, null, "^Source").name())
                .isEqualTo("linux-deadline");
        assertThatThrownBy(() -> LinuxBackends.byName("xen-rtds", r, 2, null, null))
                .hasMessageContaining("unknown Linux budget backend 'xen-rtds'")
                .hasMessageContaining("[none, linux-cgroup, linux-deadline]");
    }
}
