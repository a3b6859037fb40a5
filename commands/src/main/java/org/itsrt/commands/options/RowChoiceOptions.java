package org.itsrt.commands.options;

import java.nio.file.Path;
import java.util.List;
import org.itsrt.cli.options.RateOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.RepetitionsOption;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --rows}, {@code --repetitions}, {@code --quick} and the load ({@code --rate},
 * {@code --records}, {@code --warmup}): an experiment file's rows and runs with less of them, or
 * under a load the machine carries (a cluster in an emulated machine), without editing the file.
 */
public final class RowChoiceOptions {

    @Option(
            names = "--rows",
            paramLabel = "LABEL",
            split = ",",
            description = "run only these rows of the file, by label (--print-plan lists them), in the file's order "
                    + "(default: every row)")
    List<String> rows;

    @Mixin
    RepetitionsOption repetitions;

    @Mixin
    QuickOption quick;

    @Mixin
    RateOption rate;

    @Mixin
    RecordsOption records;

    @Mixin
    WarmupOptions warmup;

    /**
     * The rows and repetitions chosen from {@code spec}, read from {@code file}.
     *
     * @throws IllegalArgumentException naming the option that cannot apply, and why
     */
    public ExperimentSpec choose(ExperimentSpec spec, Path file) {
        String refusal = refusal(spec, file);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        ExperimentSpec out = spec;
        if (rows != null) {
            out = out.withRows(out.rows().stream()
                    .filter(row -> rows.contains(row.label()))
                    .toList());
        }
        if (repetitions.given() != null) {
            out = out.withRepetitions(repetitions.given());
        }
        return out;
    }

    private String refusal(ExperimentSpec spec, Path file) {
        if (repetitions.given() != null && repetitions.given() < 1) {
            return "--repetitions: must be >= 1, got " + repetitions.given();
        }
        if (rows == null) {
            return null;
        }
        List<String> labels =
                spec.rows().stream().map(ExperimentSpec.Row::label).toList();
        for (String label : rows) {
            if (!labels.contains(label)) {
                return "--rows: no row '" + label + "' in " + file + " (its rows: " + String.join(", ", labels) + ")";
            }
        }
        if (spec.accuracyReference() != null && !rows.contains(spec.accuracyReference())) {
            return "--rows: keep " + spec.accuracyReference() + ", the file's accuracy_reference (the other rows' "
                    + "predictions are held against its runs)";
        }
        return null;
    }

    /**
     * With {@code --quick}, the file's records, warm-up and steady-state cut give way to a quick
     * run's; a rate, records or warm-up given replace the file's, over every row.
     */
    public void applyTo(RunPlan.Builder plan) {
        if (quick.given()) {
            plan.load().quick();
        }
        if (rate.given() != null) {
            plan.load().rateHz(rate.given());
        }
        if (records.given() != null) {
            plan.load().records(records.given());
        }
        if (warmup.given()) {
            plan.load().warmup(warmup.time(), warmup.records());
        }
    }
}
