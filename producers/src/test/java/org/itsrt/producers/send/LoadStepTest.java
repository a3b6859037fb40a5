package org.itsrt.producers.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.itsrt.producers.LoadStepOption;
import org.junit.jupiter.api.Test;

class LoadStepTest {

    private static final long S = 1_000_000_000L;

    @Test
    void theRateIsTheFactorInsideTheStepAndTheSameOutside() {
        LoadStep step = new LoadStep(Duration.ofSeconds(10), Duration.ofSeconds(20), 3);
        // 1 record/s from one source: count the records due in each second of the wall clock.
        OpenLoopSchedule schedule = OpenLoopSchedule.of(0, 1, 1, step);
        int[] perSecond = new int[60];
        for (long k = 0; k < 200; k++) {
            long t = schedule.intendedNs(0, k);
            if (t < 60 * S) {
                perSecond[(int) (t / S)]++;
            }
        }
        for (int second = 0; second < 60; second++) {
            int expected = second >= 10 && second < 30 ? 3 : 1;
            assertEquals(expected, perSecond[second], "records due in second " + second);
        }
    }

    @Test
    void theWarpIsContinuousAndNeverGoesBack() {
        LoadStep step = new LoadStep(Duration.ofMillis(1500), Duration.ofMillis(2500), 2.5);
        long last = -1;
        for (long u = 0; u < 20 * S; u += 1_000_003) {
            long wall = step.wallNs(u);
            assertTrue(wall >= last, "time went back at " + u);
            last = wall;
        }
        // After the step the schedule runs at its own rate again, shifted by what the step saved.
        long saved = Math.round(2.5 * S * 2.5) - Math.round(2.5 * S);
        assertEquals(10 * S - saved, step.wallNs(10 * S), 1);
    }

    @Test
    void aStepDownSpreadsTheRecordsOut() {
        LoadStep half = new LoadStep(Duration.ZERO, Duration.ofSeconds(4), 0.5);
        assertEquals(2 * S, half.wallNs(S));
        assertEquals(4 * S + 3 * S, half.wallNs(5 * S));
        assertEquals(0.5, half.factorAt(3 * S));
        assertEquals(1, half.factorAt(4 * S));
    }

    @Test
    void noStepLeavesTheScheduleAsItWas() {
        OpenLoopSchedule plain = OpenLoopSchedule.of(7, 10, 6);
        OpenLoopSchedule none = OpenLoopSchedule.of(7, 10, 6, LoadStep.NONE);
        for (int source = 0; source < 6; source++) {
            for (long k = 0; k < 50; k++) {
                assertEquals(plain.intendedNs(source, k), none.intendedNs(source, k));
            }
        }
    }

    @Test
    void theOptionReadsAtLengthFactorAndNamesWhatIsWrong() {
        LoadStep step = LoadStepOption.parse("60s,2m,3");
        assertEquals(new LoadStep(Duration.ofSeconds(60), Duration.ofMinutes(2), 3), step);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadStepOption.parse("60s,120s"))
                .getMessage()
                .contains("AT,LENGTH,FACTOR"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadStepOption.parse("60s,120s,-1"))
                .getMessage()
                .contains("FACTOR > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadStepOption.parse("60s,0s,3"))
                .getMessage()
                .contains("LENGTH > 0"));
        assertThrows(IllegalArgumentException.class, () -> LoadStepOption.parse("soon,120s,3"));
    }
}
