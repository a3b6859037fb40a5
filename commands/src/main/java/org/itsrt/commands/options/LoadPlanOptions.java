package org.itsrt.commands.options;

import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.RateOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.SloMsOption;
import org.itsrt.cli.options.SteadyAfterOption;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.kafka.ConsumerPropertiesOption;
import org.itsrt.kafka.ProducerPropertiesOption;
import org.itsrt.pipeline.plan.LoadPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What the producers send and how the probe judges it: the load part of a run plan. */
public final class LoadPlanOptions {

    @Mixin
    DataOption data;

    @Mixin
    RateOption rate;

    @Mixin
    RecordsOption records;

    @Option(
            names = "--quick",
            description = "a 30-second run: 30 s of measured records at the rate, after a 10 s warm-up")
    boolean quick;

    @Mixin
    WarmupOptions warmup;

    @Mixin
    SteadyAfterOption steadyAfter;

    @Mixin
    SloMsOption sloMs;

    @Mixin
    ProducerPropertiesOption producerProps;

    @Mixin
    ConsumerPropertiesOption consumerProps;

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
        if (rate.given() != null) {
            load.rateHz(rate.given());
        }
        if (quick) {
            load.quick();
        }
        if (records.given() != null) {
            load.records(records.given());
        }
        load.warmup(warmup.time(), warmup.records());
        if (steadyAfter.given() != null) {
            load.steadyAfter(steadyAfter.given());
        }
        if (sloMs.given() != null) {
            load.sloMs(sloMs.given());
        }
        producerProps.given().forEach(load::producerProperty);
        consumerProps.given().forEach(load::consumerProperty);
    }
}
