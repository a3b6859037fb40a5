package org.itsrt.experiments.tune;

/** What the search concluded about one budget. */
public enum Verdict {
    /** Every run met the SLO. */
    PASS("pass"),
    /** No run met the SLO. */
    FAIL("fail"),
    /** The runs disagreed, so more were run; a budget that misses the SLO in any run fails. */
    NOISY_FAIL("noisy: fail"),
    /** A run failed (it did not measure, or the pipeline exited non-zero): the search stopped here. */
    RUN_FAILED("run failed"),
    /** The search was interrupted (Ctrl-C) while this point was being measured: no verdict. */
    INTERRUPTED("interrupted");

    public final String text;

    Verdict(String text) {
        this.text = text;
    }

    public boolean passed() {
        return this == PASS;
    }
}
