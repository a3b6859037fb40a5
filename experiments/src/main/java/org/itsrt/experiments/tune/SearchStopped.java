package org.itsrt.experiments.tune;

/** A run failed, or the search was interrupted: the search ends with what it has. */
final class SearchStopped extends Exception {

    private static final long serialVersionUID = 1L;

    SearchStopped(String message) {
        super(message, null, false, false);
    }
}
