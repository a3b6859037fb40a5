package org.itsrt.scheduling.cli;

import java.nio.file.Path;
import org.itsrt.scheduling.linux.CgroupFs;
import org.itsrt.scheduling.linux.CgroupIo;
import org.itsrt.scheduling.linux.InterferenceLoad;
import org.itsrt.scheduling.linux.Proc;
import org.itsrt.scheduling.linux.SchedulingException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** An interference load beside the budgeted process: busy threads or an fsync loop, optionally pinned. */
final class InterferenceOptions {

    @Option(
            names = "--load",
            paramLabel = "KIND",
            description = "an interference load beside the process: cpu:N (N busy threads) or io[:DIR] (write + "
                    + "fsync loop on a file in DIR, default the temporary directory)")
    String load;

    @Option(names = "--load-cpus", paramLabel = "LIST", description = "pin the load to these CPUs")
    String loadCpus;

    /** Starts the load asked for in a sibling cgroup under {@code cgroupParent}; a bad kind is refused naming --load. */
    InterferenceLoad start(CommandLine cmd, Path cgroupRoot, String cgroupParent) {
        InterferenceLoad.Spec loadSpec;
        try {
            if (load.startsWith("cpu:")) {
                loadSpec = InterferenceLoad.Spec.cpu(Integer.parseInt(load.substring(4)));
            } else if (load.equals("io")) {
                loadSpec = InterferenceLoad.Spec.io(null);
            } else if (load.startsWith("io:")) {
                loadSpec = InterferenceLoad.Spec.io(Path.of(load.substring(3)));
            } else {
                throw new IllegalArgumentException("expected cpu:N or io[:DIR]");
            }
            if (loadCpus != null) {
                loadSpec = loadSpec.pinnedTo(loadCpus);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--load '" + load + "': " + e.getMessage());
        }
        CgroupFs fs;
        try {
            fs = CgroupFs.detect(cgroupRoot, CgroupIo.SYSTEM, Proc.SYSTEM);
        } catch (SchedulingException e) {
            throw new SchedulingException("the load's sibling cgroup: " + e.getMessage(), e);
        }
        return InterferenceLoad.start(loadSpec, fs, cgroupParent);
    }
}
