package org.itsrt.commands.options;

import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.DetectorsOption;
import org.itsrt.cli.options.RateOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.RequestsOption;
import org.itsrt.cli.options.SeedOption;
import org.itsrt.cli.options.SloMsOption;
import org.itsrt.cli.options.SteadyAfterOption;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.cli.options.WorkloadOption;
import org.itsrt.kafka.ConsumerPropertiesOption;
import org.itsrt.kafka.ProducerPropertiesOption;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.producers.LoadStepOption;
import org.itsrt.records.Workload;
import picocli.CommandLine.Mixin;

/** What the producers send and how the probe judges it: the load part of a run plan. */
public final class LoadPlanOptions {

    @Mixin
    WorkloadOption workload;

    @Mixin
    DetectorsOption detectors;

    @Mixin
    SeedOption seed;

    @Mixin
    RequestsOption requests;

    @Mixin
    DataOption data;

    @Mixin
    RateOption rate;

    @Mixin
    RecordsOption records;

    @Mixin
    QuickOption quick;

    @Mixin
    WarmupOptions warmup;

    @Mixin
    SteadyAfterOption steadyAfter;

    @Mixin
    SloMsOption sloMs;

    @Mixin
    LoadStepOption loadStep;

    @Mixin
    ProducerPropertiesOption producerProps;

    @Mixin
    ConsumerPropertiesOption consumerProps;

    public boolean quick() {
        return quick.given();
    }

    public WarmupOptions warmup() {
        return warmup;
    }

    /**
     * Sets the options given over the plan's load. The district's options ({@code --detectors N},
     * {@code --seed}, {@code --requests}) set its {@code load.district} block; for the study
     * {@code --detectors} names VDS ids.
     */
    public void applyTo(LoadPlan.Builder load) {
        if (workload.given() != null) {
            load.workload(workload.given());
        }
        if (load.chosenWorkload() == Workload.DISTRICT) {
            DistrictPlan.Builder district = load.districtFields();
            if (detectors.ids() != null) {
                district.detectors(detectors.count());
            }
            seed.given().ifPresent(district::seed);
            if (requests.given() != null) {
                district.requestsPerSecond(requests.given());
            }
        } else {
            if (detectors.ids() != null) {
                load.detectors(detectors.ids());
            }
            if (seed.given().isPresent() || requests.given() != null) {
                throw (seed.given().isPresent() ? DistrictPlan.SEED : DistrictPlan.REQUESTS)
                        .refused("is for --workload district");
            }
        }
        if (data.given() != null) {
            load.data(data.given());
        }
        if (rate.given() != null) {
            load.rateHz(rate.given());
        }
        if (quick.given()) {
            load.quick();
        }
        if (records.given() != null) {
            load.records(records.given());
        }
        load.warmup(warmup.time(), warmup.records());
        if (steadyAfter.given() != null) {
            load.steadyAfter(steadyAfter.given());
        }
        if (loadStep.given() != null) {
            load.loadStep(loadStep.given());
        }
        if (sloMs.given() != null) {
            load.sloMs(sloMs.given());
        }
        producerProps.given().forEach(load::producerProperty);
        consumerProps.given().forEach(load::consumerProperty);
    }
}
