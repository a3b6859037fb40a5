package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupDetectionTest {

    @TempDir
    Path root;

    private CgroupFs detect() {
        return CgroupFs.detect(root, CgroupIo.SYSTEM, new Proc(root.resolve("proc")));
    }

    @Test
    void v2WithTheCpuController() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
        assertThat(detect().version()).isEqualTo("v2");
    }

    @Test
    void v1WithACpuHierarchy() throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        Files.writeString(root.resolve("cpu/cpu.cfs_quota_us"), "-1\n");
        assertThat(detect().version()).isEqualTo("v1");
    }

    @Test
    void v1WithCpuAndCpuacctMountedTogether() throws Exception {
        Files.createDirectories(root.resolve("cpu,cpuacct"));
        Files.writeString(root.resolve("cpu,cpuacct/cpu.cfs_quota_us"), "-1\n");
        assertThat(detect().version()).isEqualTo("v1");
    }

    @Test
    void aHybridLayoutIsV1WhenTheUnifiedMountHasNoControllers() throws Exception {
        // Like this machine: v1 controllers, and a v2 mount without controllers at unified/.
        Files.createDirectories(root.resolve("cpu"));
        Files.writeString(root.resolve("cpu/cpu.cfs_quota_us"), "-1\n");
        Files.createDirectories(root.resolve("unified"));
        Files.writeString(root.resolve("unified/cgroup.controllers"), "\n");
        assertThat(detect().version()).isEqualTo("v1");
        // Pointed at the v2 mount itself, it says the cpu controller is not there.
        assertThatThrownBy(() -> CgroupFs.detect(root.resolve("unified"), CgroupIo.SYSTEM, Proc.SYSTEM))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("cgroup v2 hierarchy but its cgroup.controllers ('') has no cpu controller");
    }

    @Test
    void v1WithoutBandwidthControlIsNamed() throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        Files.writeString(root.resolve("cpu/cpu.shares"), "1024\n");
        assertThatThrownBy(this::detect).hasMessageContaining("CONFIG_CFS_BANDWIDTH");
    }

    @Test
    void nothingMountedNamesBothFilesItLookedFor() {
        assertThatThrownBy(this::detect)
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining(root.resolve("cgroup.controllers").toString())
                .hasMessageContaining(root.resolve("cpu/cpu.cfs_quota_us").toString());
    }

    @Test
    void pinningOnV1WithoutACpusetHierarchyIsNamed() throws Exception {
        Files.createDirectories(root.resolve("cpu"));
        Files.writeString(root.resolve("cpu/cpu.cfs_quota_us"), "-1\n");
        CgroupFs fs = detect();
        assertThatThrownBy(() -> fs.create("", "g", CgroupBandwidth.unlimited().pinnedTo("0")))
                .hasMessageContaining("needs the cgroup v1 cpuset hierarchy")
                .hasMessageContaining(root.resolve("cpuset/cpuset.cpus").toString());
    }

    @Test
    void aMissingInterfaceFileIsNamed() throws Exception {
        // A v1 cpu hierarchy whose new groups lack the bandwidth files (plain directories here).
        Files.createDirectories(root.resolve("cpu"));
        Files.writeString(root.resolve("cpu/cpu.cfs_quota_us"), "-1\n");
        CgroupFs fs = detect();
        assertThatThrownBy(() -> fs.create("", "g", CgroupBandwidth.unlimited()))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("cannot set the CPU bandwidth period")
                .hasMessageContaining(root.resolve("cpu/g/cpu.cfs_period_us") + " is missing");
        assertThat(root.resolve("cpu/g")).doesNotExist();
    }
}
