package org.itsrt.readings.pems;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.HashSet;
import java.util.Set;
import org.itsrt.readings.Reading;

/**
 * Turns the Pacific wall-clock times of one PeMS file into instants. Use one resolver per file:
 * on the autumn DST day the hour 01:00-01:59 happens twice, and a file lists it twice in time
 * order, so the first occurrence of such a local time in a file is the earlier instant (PDT) and
 * any repeat of it in the same file the later one (PST). A local time in the spring gap does not
 * exist and is a problem of the row.
 */
final class PacificTimeResolver {
    private static final ZoneRules RULES = Reading.PACIFIC.getRules();

    private final Set<LocalDateTime> seenInOverlap = new HashSet<>();

    Instant toInstant(LocalDateTime local, String column) throws RowProblem {
        ZoneOffsetTransition transition = RULES.getTransition(local);
        if (transition == null) {
            return local.atZone(Reading.PACIFIC).toInstant();
        }
        if (transition.isGap()) {
            throw RowProblem.malformed(
                    column,
                    "time in the DST gap",
                    "local time " + local
                            + " does not exist in America/Los_Angeles (clocks jump from "
                            + transition.getDateTimeBefore().toLocalTime() + " to "
                            + transition.getDateTimeAfter().toLocalTime() + " on " + local.toLocalDate() + ")");
        }
        boolean repeat = !seenInOverlap.add(local);
        return local.atOffset(repeat ? transition.getOffsetAfter() : transition.getOffsetBefore())
                .toInstant();
    }
}
