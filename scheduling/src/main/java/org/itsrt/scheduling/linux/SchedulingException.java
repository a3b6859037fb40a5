package org.itsrt.scheduling.linux;

/**
 * A budget could not be applied or restored: a missing cgroup file, a missing privilege, a refusal by
 * the kernel. The message names the file, option or privilege and what was expected.
 */
public class SchedulingException extends RuntimeException {

    public SchedulingException(String message) {
        super(message);
    }

    public SchedulingException(String message, Throwable cause) {
        super(message, cause);
    }
}
