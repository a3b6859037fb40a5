package org.itsrt.pipeline.plan;

/**
 * A run plan that cannot run: the field and what was expected. Thrown while a plan is built, so
 * that a bad value fails before a broker or a cluster starts.
 */
public final class PlanException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient PlanField field;

    PlanException(PlanField field, String problem) {
        super(field + (problem.startsWith(":") ? "" : " ") + problem);
        this.field = field;
    }

    /** The field refused. */
    public PlanField field() {
        return field;
    }
}
