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

    /**
     * The noise rule of a point whose runs all measured: it passes only if every run met the SLO,
     * which keeps an answer on the safe side when runs disagree.
     */
    public static Verdict of(int runsMeetingSlo, int runs) {
        return runsMeetingSlo == runs ? PASS : runsMeetingSlo == 0 ? FAIL : NOISY_FAIL;
    }

    /**
     * Whether a point's runs disagree, so that it is run up to the larger repetition count: more
     * runs cannot make it pass, but measure how often it meets the SLO.
     */
    public static boolean disagree(int runsMeetingSlo, int runs) {
        return runsMeetingSlo > 0 && runsMeetingSlo < runs;
    }
}
