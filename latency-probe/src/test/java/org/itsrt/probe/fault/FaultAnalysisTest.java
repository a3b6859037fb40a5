package org.itsrt.probe.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.stats.LatencyKind;
import org.junit.jupiter.api.Test;

/** A fault's gap, silence, delayed and duplicated records and recovery, on arrivals built by hand. */
class FaultAnalysisTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1000 * MS;
    private static final long SLO = 20 * MS;
    private static final long WINDOW = 1 * S;
    /** Polls come every 10 ms, each with one record of each detector. */
    private static final long POLL = 10 * MS;

    private static final int[] DETECTORS = {1, 2};

    /** The arrivals of a run, poll by poll; seq {@code s} of every detector was sent at {@code sent(s)}. */
    private static final class Run {
        final List<Arrival> arrivals = new ArrayList<>();

        static long sent(long seq) {
            return seq * POLL;
        }

        /** One poll at {@code t} with seq {@code seq} of each detector, sent at {@link #sent}. */
        Run poll(long t, long seq) {
            for (int detector : DETECTORS) {
                arrivals.add(arrival(detector, seq, sent(seq), t));
            }
            return this;
        }

        /** {@code n} polls from {@code t} on, one every {@link #POLL}, seqs from {@code seq}, with {@code latency}. */
        Run steady(long t, long seq, int n, long latency) {
            for (int i = 0; i < n; i++) {
                long at = t + i * POLL;
                for (int detector : DETECTORS) {
                    arrivals.add(arrival(detector, seq + i, at - latency, at));
                }
            }
            return this;
        }

        Run add(Arrival a) {
            arrivals.add(a);
            return this;
        }

        FaultAnalysis.Result analyse(FaultMark... marks) {
            FaultAnalysis analysis = new FaultAnalysis(List.of(marks), LatencyKind.FROM_INTENDED, SLO, WINDOW);
            arrivals.forEach(analysis::arrived);
            analysis.finish();
            return analysis.result();
        }
    }

    private static Arrival arrival(long detector, long seq, long sentNs, long arrivalNs) {
        return new Arrival(detector, seq, sentNs, sentNs, Arrival.ABSENT, Arrival.ABSENT, Arrival.ABSENT, arrivalNs);
    }

    private static FaultMark mark(String label, long clockNs) {
        return new FaultMark(label, Instant.EPOCH.plusNanos(clockNs), clockNs);
    }

    /**
     * A failover: steady until the kill, nothing for {@code silence}, then the job replays from its
     * checkpoint {@code replayed} seqs back: those arrive again (duplicates), then the records held
     * up during the outage, all late, then steady again.
     */
    @Test
    void aFailoverShowsItsGapDelayedAndDuplicatedRecordsAndRecovery() {
        int before = 500;
        long killAt = 5 * S;
        long silence = 3 * S;
        int replayed = 100;
        int backlog = 150;
        long lastBefore = (before - 1) * POLL;
        long restart = lastBefore + silence;
        Run run = new Run().steady(0, 0, before, 2 * MS);
        for (int j = 0; j < backlog; j++) {
            run.poll(restart + j * POLL, before - replayed + j);
        }
        long clean = restart + backlog * POLL;
        run.steady(clean, before - replayed + backlog, 300, 2 * MS);

        FaultAnalysis.Result result = run.analyse(mark("kill -9 taskmanager-1", killAt));

        assertThat(result.faults()).hasSize(1);
        FaultAnalysis.Fault fault = result.faults().get(0);
        assertThat(fault.lastBeforeNs()).isEqualTo(lastBefore);
        assertThat(fault.firstAfterNs()).isEqualTo(restart);
        assertThat(fault.gapNs()).isEqualTo(silence);
        assertThat(fault.silence()).isEqualTo(new FaultAnalysis.Silence(lastBefore, silence));
        assertThat(fault.delayed()).isEqualTo((long) backlog * DETECTORS.length);
        // Every backlog record is as late as the replay is far behind: restart - the send of its seq.
        assertThat(fault.peakLatencyNs()).isEqualTo(restart - Run.sent(before - replayed));
        assertThat(fault.duplicated()).isEqualTo((long) replayed * DETECTORS.length);
        assertThat(fault.duplicatedByDetector())
                .containsExactly(Map.entry(1L, (long) replayed), Map.entry(2L, (long) replayed));
        assertThat(fault.recoveryNs()).isEqualTo(clean - killAt);
        assertThat(result.largestSilence()).isEqualTo(fault.silence());
    }

    @Test
    void aFaultWithAnEndIsOneSpanWhoseSilenceCoversTheWindowAndWhoseRecoveryCountsFromBoth() {
        // A broker stopped at 5 s and back at 25 s: nothing arrives in between; at 26 s the records
        // the producers held arrive, all late, for 1 s; then steady.
        long stopAt = 5 * S;
        long backAt = 25 * S;
        Run run = new Run().steady(0, 0, 500, 2 * MS); // 0 .. 4.99 s
        long lastBefore = 499 * POLL;
        long firstAfter = 26 * S;
        int held = 100;
        run.steady(firstAfter, 500, held, 3 * S);
        long clean = firstAfter + held * POLL;
        run.steady(clean, 500 + held, 200, 2 * MS);
        FaultMark stop =
                mark("broker stopped", stopAt).withEnd(new FaultMark.End(Instant.EPOCH.plusNanos(backAt), backAt));

        FaultAnalysis.Result result = run.analyse(stop);

        assertThat(result.faults()).hasSize(1);
        FaultAnalysis.Fault fault = result.faults().get(0);
        assertThat(fault.mark().end().clockNs()).isEqualTo(backAt);
        assertThat(fault.gapNs()).isEqualTo(firstAfter - lastBefore);
        assertThat(fault.silence()).isEqualTo(new FaultAnalysis.Silence(lastBefore, firstAfter - lastBefore));
        assertThat(fault.silence().startNs()).isLessThanOrEqualTo(stopAt);
        assertThat(fault.silence().endNs()).isGreaterThanOrEqualTo(backAt);
        assertThat(fault.delayed()).isEqualTo(held * 2L);
        assertThat(fault.recoveryNs()).isEqualTo(clean - stopAt);
        assertThat(fault.recoveryAfterEndNs()).isEqualTo(clean - backAt);
    }

    @Test
    void aFaultOverBeforeLatencyWasEverLateRecoveredAtItsEnd() {
        Run run = new Run().steady(0, 0, 300, 2 * MS);
        FaultMark blip = mark("blip", 1 * S).withEnd(new FaultMark.End(Instant.EPOCH.plusNanos(2 * S), 2 * S));

        FaultAnalysis.Fault fault = run.analyse(blip).faults().get(0);

        assertThat(fault.recoveryNs()).isZero();
        assertThat(fault.recoveryAfterEndNs()).isZero();
        // Without an end there is nothing to count from.
        assertThat(run.analyse(mark("blip", 1 * S)).faults().get(0).recoveryAfterEndNs())
                .isNull();
    }

    @Test
    void anOutageThatStartsAfterTheMarkIsItsSilenceNotItsGap() {
        // Advice goes on for 2 s after the mark (a lost TaskManager is noticed late), then stops
        // for 4 s; the 100 polls after it carry records that waited out the outage.
        long markAt = 1 * S;
        Run run = new Run().steady(0, 0, 300, 2 * MS);
        long lastBefore = 299 * POLL;
        long restart = lastBefore + 4 * S;
        int late = 100;
        run.steady(restart, 300, late, 4 * S);
        run.steady(restart + late * POLL, 300 + late, 200, 2 * MS);

        FaultAnalysis.Fault fault = run.analyse(mark("kill", markAt)).faults().get(0);

        assertThat(fault.gapNs()).isEqualTo(POLL);
        assertThat(fault.silence()).isEqualTo(new FaultAnalysis.Silence(lastBefore, 4 * S));
        assertThat(fault.delayed()).isEqualTo(late * 2L);
        assertThat(fault.peakLatencyNs()).isEqualTo(4 * S);
        assertThat(fault.recoveryNs()).isEqualTo(restart + late * POLL - markAt);
    }

    @Test
    void aLateRecordWithinTheWindowRestartsTheCountToRecovery() {
        long markAt = 500 * MS;
        Run run = new Run().steady(0, 0, 50, 2 * MS);
        run.steady(600 * MS, 50, 10, 100 * MS); // late: 600..690 ms
        run.steady(700 * MS, 60, 50, 2 * MS); // clean 700..1190 ms, half a window
        long lateAgain = 1200 * MS;
        run.add(arrival(1, 110, lateAgain - 50 * MS, lateAgain)); // one late record...
        run.add(arrival(2, 110, lateAgain - 2 * MS, lateAgain)); // ...in a poll with a clean one
        run.steady(lateAgain + POLL, 111, 150, 2 * MS); // clean for 1.5 s

        FaultAnalysis.Fault fault =
                run.analyse(mark("stop broker 2", markAt)).faults().get(0);

        assertThat(fault.delayed()).isEqualTo(10 * 2 + 1);
        assertThat(fault.peakLatencyNs()).isEqualTo(100 * MS);
        // Not from 700 ms (cut short at 1.2 s), nor from the poll at 1.2 s that held a late record.
        assertThat(fault.recoveryNs()).isEqualTo(lateAgain + POLL - markAt);
    }

    @Test
    void latencyThatNeverComesBackWithinTheRunIsNotRecovered() {
        Run run = new Run().steady(0, 0, 100, 2 * MS);
        run.steady(2 * S, 100, 50, 500 * MS); // late until the run ends

        FaultAnalysis.Fault fault =
                run.analyse(mark("kill jobmanager", 1500 * MS)).faults().get(0);

        assertThat(fault.recoveryNs()).isNull();
        assertThat(fault.delayed()).isEqualTo(50 * 2);
    }

    @Test
    void eachFaultCountsTheRecordsOfItsOwnSpan() {
        Run run = new Run().steady(0, 0, 100, 2 * MS); // 0 .. 0.99 s
        run.steady(2 * S, 90, 20, 2 * MS); // seqs 90..99 again, then 100..109
        run.steady(4 * S, 105, 10, 2 * MS); // seqs 105..109 again, then 110..114

        FaultAnalysis.Result result = run.analyse(mark("first", 1500 * MS), mark("second", 3 * S));

        assertThat(result.faults()).extracting(f -> f.mark().label()).containsExactly("first", "second");
        assertThat(result.faults().get(0).duplicated()).isEqualTo(10 * 2);
        assertThat(result.faults().get(1).duplicated()).isEqualTo(5 * 2);
        assertThat(result.faults().get(0).gapNs()).isEqualTo(2 * S - 99 * POLL);
        assertThat(result.faults().get(1).gapNs()).isEqualTo(4 * S - (2 * S + 19 * POLL));
        // No record over the SLO: nothing delayed, recovered at once.
        assertThat(result.faults().get(0).recoveryNs()).isZero();
        assertThat(result.faults().get(0).peakLatencyNs()).isNull();
        assertThat(result.largestSilence().lengthNs()).isEqualTo(4 * S - (2 * S + 19 * POLL));
    }

    @Test
    void marksOutsideTheArrivalsHaveNoSideThatDidNotHappen() {
        Run run = new Run().steady(1 * S, 0, 10, 2 * MS);

        FaultAnalysis.Result result = run.analyse(mark("before", 0), mark("after", 5 * S));

        FaultAnalysis.Fault early = result.faults().get(0);
        assertThat(early.lastBeforeNs()).isNull();
        assertThat(early.firstAfterNs()).isEqualTo(1 * S);
        assertThat(early.gapNs()).isNull();
        FaultAnalysis.Fault late = result.faults().get(1);
        assertThat(late.lastBeforeNs()).isEqualTo(1 * S + 9 * POLL);
        assertThat(late.firstAfterNs()).isNull();
        assertThat(late.silence()).isNull();
        assertThat(late.recoveryNs()).isNull();
    }

    @Test
    void withoutMarksTheLongestSilenceStillShows() {
        Run run = new Run().steady(0, 0, 100, 2 * MS);
        run.steady(3 * S, 100, 100, 2 * MS);
        run.steady(5 * S, 200, 100, 2 * MS);

        FaultAnalysis.Result result = run.analyse();

        assertThat(result.faults()).isEmpty();
        assertThat(result.largestSilence()).isEqualTo(new FaultAnalysis.Silence(99 * POLL, 3 * S - 99 * POLL));
        assertThat(new Run().analyse().largestSilence()).isNull();
    }
}
