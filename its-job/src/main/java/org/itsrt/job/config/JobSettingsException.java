package org.itsrt.job.config;

/**
 * A job option that cannot be used. The message starts with the option ({@code --model: ...})
 * and names the file when a file is at fault, so the one line printed by {@code flink run} says
 * what to fix.
 */
public class JobSettingsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String option;
    private final String problem;

    public JobSettingsException(String option, String problem) {
        super(option == null ? problem : option + ": " + problem);
        this.option = option;
        this.problem = problem;
    }

    public JobSettingsException(String option, String problem, Throwable cause) {
        super(option == null ? problem : option + ": " + problem, cause);
        this.option = option;
        this.problem = problem;
    }

    /** What is wrong with the option's value, without the option's name. */
    public String problem() {
        return problem;
    }

    /** The option at fault, e.g. {@code --model}; null when the command line as a whole is. */
    public String option() {
        return option;
    }
}
