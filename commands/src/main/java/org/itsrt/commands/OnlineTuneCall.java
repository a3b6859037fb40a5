package org.itsrt.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.cli.RunFolders;
import org.itsrt.commands.options.SearchRunOptions;
import org.itsrt.experiments.online.OnlineReport;
import org.itsrt.experiments.online.OnlineTune;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.experiments.tune.TunePlan;
import org.itsrt.scheduling.linux.LeftoverRestore;

/** {@code ./its tune --online}: the tune's plan run once with a budget that follows the load. */
final class OnlineTuneCall {

    private OnlineTuneCall() {}

    static int call(
            TunePlan plan,
            Path baseFile,
            java.time.Duration interval,
            Path out,
            boolean printPlanOnly,
            PrintWriter console,
            PrintWriter err)
            throws Exception {
        OnlineTune online;
        try {
            online = OnlineTune.of(plan, baseFile, interval);
        } catch (SpecException e) {
            err.println("its-tune: " + e.getMessage().replace("\n", "\nits-tune: "));
            err.flush();
            return 2;
        }
        console.print(online.describe());
        console.flush();
        if (printPlanOnly) {
            return 0;
        }
        Path dir = RunFolders.orDefault(out, "tune", plan.experiment().name() + "-online");
        String unusable =
                SearchRunOptions.unusable(dir, OnlineReport.MARKDOWN, "an online tune", plan.pointPlan(), true);
        if (unusable != null) {
            err.println("its-tune: " + unusable);
            err.flush();
            return 2;
        }
        Files.createDirectories(dir);
        Files.copy(baseFile, dir.resolve("base.yaml"), StandardCopyOption.REPLACE_EXISTING);
        LeftoverRestore.atStart("its-tune", err);
        AtomicReference<OnlineTune.Running> running = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    OnlineTune.Running run = running.get();
                    if (run != null) {
                        run.stop();
                    }
                    try {
                        // Wait for the report of what was measured and for the budget's restore.
                        finished.await(90, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-tune-online-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int exit;
        try {
            exit = online.run(dir, System.err, running::set);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
        console.println("results: " + dir.resolve(OnlineReport.MARKDOWN));
        console.flush();
        return exit;
    }
}
