package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.nio.file.Path;
import org.itsrt.records.Workload;

/**
 * One pipeline run as a document: the stack it runs on, the load, the job, the CPU budget of the
 * job's process, the phases it measures and where its reports go. Every default and every check lives in its parts' builders and
 * constructors, so a plan that exists can run; {@link RunPlanYaml} reads and writes it, and a
 * command line only sets some of its fields ({@code ./its demo --print-plan} shows the result,
 * {@code ./its demo --plan FILE} runs one). docs/pipeline.md, "Run plans", has the schema.
 */
@JsonDeserialize(builder = RunPlan.Builder.class)
@JsonPropertyOrder({"stack", "load", "job", "budget", "phases", "output"})
public record RunPlan(
        StackPlan stack, LoadPlan load, JobPlan job, BudgetPlan budget, PhasePlan phases, OutputPlan output) {

    public RunPlan {
        stack = stack != null ? stack : StackPlan.builder().build();
        load = load != null ? load : LoadPlan.builder().build();
        job = job != null ? job : JobPlan.builder().build();
        budget = budget != null ? budget : BudgetPlan.none();
        phases = phases != null ? phases : PhasePlan.builder().build();
        output = output != null ? output : OutputPlan.builder().build();
        // A sweep's steps run back to back on one stack; a budget is measured one run at a time.
        BudgetPlan.BACKEND.require(
                phases.run() != PhasePlan.Run.SWEEP || budget.backend() == BudgetPlan.Backend.NONE,
                ": a sweep runs without a budget; give the budget to one run (or floor-then-job)");
        if (load.workload() == Workload.DISTRICT) {
            PhasePlan.RUN.require(
                    phases.run() == PhasePlan.Run.ONE,
                    "is one run for the district workload: a sweep or the floor then the job is not yet planned "
                            + "for it");
            JobPlan.IDENTITY.require(
                    !job.identity(), ": the identity floor is the study's; the district workload runs the job");
        }
        if (phases.run() == PhasePlan.Run.FLOOR_THEN_JOB) {
            PhasePlan.RUN.require(!job.identity(), "floor-then-job runs the floor itself: it goes without --identity");
        }
    }

    /** The default run: the study's load through the job on a local broker and a standalone cluster. */
    public static RunPlan defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .stack(stack.toBuilder())
                .load(load.toBuilder())
                .job(job.toBuilder())
                .budget(budget.toBuilder())
                .phases(phases.toBuilder())
                .output(output.toBuilder());
    }

    /** The run folder: as planned, else {@code results/demo/TIME}. */
    public Path runFolder() {
        return org.itsrt.cli.RunFolders.orDefault(output.dir(), "demo");
    }

    /**
     * Builds a plan part by part; each part's builder is open to change until {@link #build()}, so
     * that command-line options can set single fields over a plan read from a file.
     */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private StackPlan.Builder stack = StackPlan.builder();
        private LoadPlan.Builder load = LoadPlan.builder();
        private JobPlan.Builder job = JobPlan.builder();
        private BudgetPlan.Builder budget = BudgetPlan.builder();
        private PhasePlan.Builder phases = PhasePlan.builder();
        private OutputPlan.Builder output = OutputPlan.builder();

        public Builder stack(StackPlan.Builder part) {
            this.stack = part;
            return this;
        }

        public Builder load(LoadPlan.Builder part) {
            this.load = part;
            return this;
        }

        public Builder job(JobPlan.Builder part) {
            this.job = part;
            return this;
        }

        public Builder budget(BudgetPlan.Builder part) {
            this.budget = part;
            return this;
        }

        public Builder phases(PhasePlan.Builder part) {
            this.phases = part;
            return this;
        }

        public Builder output(OutputPlan.Builder part) {
            this.output = part;
            return this;
        }

        // A plan file gives whole parts, already checked.
        @com.fasterxml.jackson.annotation.JsonSetter("stack")
        Builder stackRead(StackPlan part) {
            return stack(part.toBuilder());
        }

        @com.fasterxml.jackson.annotation.JsonSetter("load")
        Builder loadRead(LoadPlan part) {
            return load(part.toBuilder());
        }

        @com.fasterxml.jackson.annotation.JsonSetter("job")
        Builder jobRead(JobPlan part) {
            return job(part.toBuilder());
        }

        @com.fasterxml.jackson.annotation.JsonSetter("budget")
        Builder budgetRead(BudgetPlan part) {
            return budget(part.toBuilder());
        }

        @com.fasterxml.jackson.annotation.JsonSetter("phases")
        Builder phasesRead(PhasePlan part) {
            return phases(part.toBuilder());
        }

        @com.fasterxml.jackson.annotation.JsonSetter("output")
        Builder outputRead(OutputPlan part) {
            return output(part.toBuilder());
        }

        public StackPlan.Builder stack() {
            return stack;
        }

        public LoadPlan.Builder load() {
            return load;
        }

        public JobPlan.Builder job() {
            return job;
        }

        public BudgetPlan.Builder budget() {
            return budget;
        }

        public PhasePlan.Builder phases() {
            return phases;
        }

        public OutputPlan.Builder output() {
            return output;
        }

        public RunPlan build() {
            return new RunPlan(
                    stack.build(), load.build(), job.build(), budget.build(), phases.build(), output.build());
        }
    }
}
