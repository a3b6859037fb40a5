package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.scheduling.linux.Proc;

/** Facts about the machine and the software a results folder was measured with. */
public final class Environment {

    private Environment() {}

    public static Map<String, String> facts(List<RowRun> results) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("written", Instant.now().toString());
        facts.put("CPU", cpuModel());
        facts.put("CPUs online", Integer.toString(Runtime.getRuntime().availableProcessors()));
        facts.put("kernel", Proc.SYSTEM.file("sys/kernel/osrelease").orElse("-"));
        facts.put("clock source (kernel)", read("/sys/devices/system/clocksource/clocksource0/current_clocksource"));
        // How idle CPUs wait: a halting vCPU leaves the guest between records (docs/scheduling.md,
        // "A CPU latency request"), so runs on hosts that differ here are not comparable.
        facts.put("CPU idle (cpuidle driver / governor)", cpuIdle());
        facts.put(
                "latency clock",
                results.isEmpty() ? "-" : probeClock(results.get(0).dir()));
        // Through Proc: sysctl files report size 0, and Files.readString reads them one byte short of their value.
        facts.put(
                "real-time throttling (sched_rt_runtime_us / sched_rt_period_us)",
                Proc.SYSTEM.file("sys/kernel/sched_rt_runtime_us").orElse("-") + " / "
                        + Proc.SYSTEM.file("sys/kernel/sched_rt_period_us").orElse("-"));
        Object cgroup = results.isEmpty() ? null : results.get(0).applied().get("cgroup_version");
        if (cgroup != null) {
            facts.put("cgroup version", cgroup.toString());
        }
        facts.put("Java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        facts.put("Flink", org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
        facts.put("Kafka clients", org.apache.kafka.common.utils.AppInfoParser.getVersion());
        return facts;
    }

    private static String probeClock(Path run) {
        try {
            return ProbeSummary.read(run.resolve("probe").resolve(RunReport.SUMMARY_JSON))
                    .run()
                    .clock();
        } catch (IOException e) {
            return "-";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElse("-");
        } catch (IOException e) {
            return "-";
        }
    }

    private static String cpuIdle() {
        String dir = "/sys/devices/system/cpu/cpuidle/";
        String governor = read(dir + "current_governor_ro");
        return read(dir + "current_driver") + " / "
                + (governor.equals("-") ? read(dir + "current_governor") : governor);
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).strip();
        } catch (IOException e) {
            return "-";
        }
    }
}
