package org.itsrt.scheduling.linux;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which threads of a process get a reservation, by the name the kernel keeps for each
 * ({@code /proc/PID/task/TID/comm}, at most 15 characters: a Flink task thread
 * "Source: its.readings -> ... (1/1)#0" shows as "Source: its.rea"). A thread is picked when the
 * pattern is found anywhere in its name; anchor it ({@code ^...$}) for whole names.
 */
public record ThreadSelector(Pattern pattern) {

    /** Every thread of the process. */
    public static ThreadSelector all() {
        return new ThreadSelector(Pattern.compile(""));
    }

    public static ThreadSelector matching(String regex) {
        try {
            return new ThreadSelector(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    "thread name pattern '" + regex + "' is not a regular expression: " + e.getDescription());
        }
    }

    public List<Proc.ThreadInfo> select(List<Proc.ThreadInfo> threads) {
        return threads.stream().filter(t -> pattern.matcher(t.comm()).find()).toList();
    }

    @Override
    public String toString() {
        return pattern.pattern().isEmpty() ? "all threads" : "threads whose name matches /" + pattern.pattern() + "/";
    }
}
