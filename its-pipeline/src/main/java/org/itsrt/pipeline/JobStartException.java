package org.itsrt.pipeline;

/**
 * The job did not get ready for the load: it stopped while starting, or did not answer the
 * handshake or open its steps in the time {@code job.start_timeout} allows. Nothing was measured.
 * The message is one line for the user, with Flink's own reason where the job failed.
 */
public final class JobStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    JobStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
