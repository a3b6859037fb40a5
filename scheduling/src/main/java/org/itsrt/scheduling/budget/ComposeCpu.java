package org.itsrt.scheduling.budget;

/**
 * A CPU setting of the Docker Compose stack's TaskManager service, the container the job's tasks run
 * in, so it stands where the rt-vm stands on Xen. A limit is the container cgroup's CFS bandwidth,
 * {@code cpu_period}/{@code cpu_quota}: the cgroup period and quota of {@link EquivalentSettings},
 * N vCPUs x the budget every period for the whole container. Without a limit it is
 * {@code cpu_shares} alone, CFS's default weight.
 *
 * @param cpuPeriodUs the CFS period; null without a limit
 * @param cpuQuotaUs the CFS quota for the whole container; null without a limit
 * @param cpuShares the CFS weight; null with a limit (the stack's own stays)
 * @param problem why Docker cannot express the limit (the kernel's CFS bandwidth limits, which Docker
 *     checks too); null when it can
 */
public record ComposeCpu(Long cpuPeriodUs, Long cpuQuotaUs, Integer cpuShares, String problem) {

    /** The TaskManager's service name in {@code docker/compose.yaml}. */
    public static final String SERVICE = "taskmanager";
    /** The stack's compose file, relative to the repository root. */
    public static final String COMPOSE_FILE = "docker/compose.yaml";
    /** The folder of the study rows' override files, {@code ROW.yaml} each, relative to the root. */
    public static final String ROW_FILES = "docker/rows";
    /** CFS's default weight, as Xen's weight 256 is Credit's and Credit2's default. */
    public static final int DEFAULT_CPU_SHARES = 1024;

    /** The cgroup bandwidth of these settings, as is. */
    public static ComposeCpu of(EquivalentSettings settings) {
        return new ComposeCpu(settings.cgroupPeriodUs(), settings.cgroupQuotaUs(), null, settings.cgroupProblem());
    }

    /** No CPU limit: the default CFS weight only. */
    public static ComposeCpu unlimited() {
        return new ComposeCpu(null, null, DEFAULT_CPU_SHARES, null);
    }

    /** The override file of a study row, relative to the repository root. */
    public static String rowFile(String row) {
        return ROW_FILES + "/" + row + ".yaml";
    }

    public boolean limited() {
        return cpuQuotaUs != null;
    }

    /** The service's settings in words: {@code cpu_period 100000, cpu_quota 153500}. */
    public String settings() {
        requireExpressible();
        return limited() ? "cpu_period " + cpuPeriodUs + ", cpu_quota " + cpuQuotaUs : "cpu_shares " + cpuShares;
    }

    /**
     * The same setting on a running container. Without a limit the quota is -1, Docker's "unlimited":
     * {@code docker update} ignores 0, so 0 would leave a previous row's quota in place.
     */
    public String dockerUpdate(String container) {
        requireExpressible();
        return limited()
                ? "docker update --cpu-period " + cpuPeriodUs + " --cpu-quota " + cpuQuotaUs + " " + container
                : "docker update --cpu-quota -1 --cpu-shares " + cpuShares + " " + container;
    }

    /** The {@code services:} block of an override file. */
    public String servicesYaml() {
        requireExpressible();
        StringBuilder yaml = new StringBuilder("services:\n  " + SERVICE + ":\n");
        if (limited()) {
            yaml.append("    cpu_period: ").append(cpuPeriodUs).append('\n');
            yaml.append("    cpu_quota: ").append(cpuQuotaUs).append('\n');
        } else {
            yaml.append("    cpu_shares: ").append(cpuShares).append('\n');
        }
        return yaml.toString();
    }

    private void requireExpressible() {
        if (problem != null) {
            throw new IllegalStateException("not expressible in Docker: " + problem);
        }
    }
}
