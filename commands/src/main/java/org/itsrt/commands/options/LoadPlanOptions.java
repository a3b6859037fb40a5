package org.itsrt.commands.options;

import java.time.Duration;
import java.util.Map;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.pipeline.plan.LoadPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What the producers send and how the probe judges it: the load part of a run plan. */
public final class LoadPlanOptions {

    @Mixin
    DataOption data;

    @Option(
            names = "--rate",
            paramLabel = "HZ",
            description = "records per second per detector (default: 10, the study's load)")
    Double rate;

    @Option(
            names = "--records",
            paramLabel = "N",
            description =
                    "measured records, all detectors together, after the warm-up (default: 20000, the study's run)")
    Long records;

    @Option(
            names = "--quick",
            description = "a 30-second run: 30 s of measured records at the rate, after a 10 s warm-up")
    boolean quick;

    @Mixin
    WarmupOptions warmup;

    @Option(
            names = "--steady-after",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "left out of the steady-state rows, counted from the first measured arrival (default: 0 "
                    + "with a warm-up, which already keeps the start out; without one 120s, 10s with --quick)")
    Duration steadyAfter;

    @Option(names = "--slo-ms", paramLabel = "MS", description = "SLO for a window's p95 (default: 20)")
    Double sloMs;

    @Option(
            names = "--producer-prop",
            paramLabel = "KEY=VALUE",
            description = "a Kafka producer setting for the detector producers (repeatable), e.g. linger.ms=5")
    Map<String, String> producerProps;

    @Option(
            names = "--consumer-prop",
            paramLabel = "KEY=VALUE",
            description = "a Kafka consumer setting for the probe (repeatable)")
    Map<String, String> consumerProps;

    public boolean quick() {
        return quick;
    }

    public WarmupOptions warmup() {
        return warmup;
    }

    /** Sets the options given over the plan's load. */
    public void applyTo(LoadPlan.Builder load) {
        if (data.given() != null) {
            load.data(data.given());
        }
        if (rate != null) {
            load.rateHz(rate);
        }
        if (quick) {
            load.quick();
        }
        if (records != null) {
            load.records(records);
        }
        load.warmup(warmup.time(), warmup.records());
        if (steadyAfter != null) {
            load.steadyAfter(steadyAfter);
        }
        if (sloMs != null) {
            load.sloMs(sloMs);
        }
        if (producerProps != null) {
            producerProps.forEach(load::producerProperty);
        }
        if (consumerProps != null) {
            consumerProps.forEach(load::consumerProperty);
        }
    }
}
