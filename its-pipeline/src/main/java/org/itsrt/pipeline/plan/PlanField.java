package org.itsrt.pipeline.plan;

/**
 * A field of a {@link RunPlan}: its key in a plan file and the command-line option that sets it.
 * A refusal names both, so that it reads right whichever of the two the user wrote.
 *
 * @param key    the dotted path in a plan file, e.g. {@code load.warmup_records}
 * @param option the command-line option that sets it, e.g. {@code --warmup-records}; null where
 *               only a plan file sets it
 */
public record PlanField(String key, String option) {

    /** A refusal of this field's value: {@code problem} reads on from the field's name. */
    public PlanException refused(String problem) {
        return new PlanException(this, problem);
    }

    /** Throws {@link #refused} unless {@code ok}. */
    public void require(boolean ok, String problem) {
        if (!ok) {
            throw refused(problem);
        }
    }

    /** The option, then the key; the key alone for a field no option sets. */
    @Override
    public String toString() {
        return option == null ? key : option + " (" + key + ")";
    }
}
