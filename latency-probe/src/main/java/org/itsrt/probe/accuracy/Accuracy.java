package org.itsrt.probe.accuracy;

import java.util.Map;
import org.itsrt.probe.accuracy.RunPredictions.Prediction;
import org.itsrt.probe.accuracy.RunPredictions.RecordKey;

/**
 * What a run's served predictions cost against a reference run's on the same records: the
 * reference is a run in which the LSTM predicted everything (a run without {@code --degrade}),
 * so the difference on a record is what serving it with the cheap engine changed. Squared errors
 * are in (veh/5 min)^2, as the flows are.
 *
 * @param label            the served run
 * @param records          records of the served run with a prediction
 * @param matched          those the reference predicted too (the others are left out)
 * @param degraded         matched records the cheap engine served
 * @param mse              mean squared difference over every matched record
 * @param mseDegraded      mean squared difference over the degraded records ({@code NaN} without any)
 * @param maxAbsDegraded   largest difference on a degraded record ({@code NaN} without any)
 * @param referenceMeanFlow mean of the reference's predictions over the matched records
 * @param lstmDiffering    records the LSTM served in both runs whose predictions still differ: 0 when
 *                         the two runs saw the same readings with the same model and engine
 * @param maxAbsLstm       the largest such difference (0 when none)
 */
public record Accuracy(
        String label,
        long records,
        long matched,
        long degraded,
        double mse,
        double mseDegraded,
        double maxAbsDegraded,
        double referenceMeanFlow,
        long lstmDiffering,
        double maxAbsLstm) {

    /**
     * Compares {@code served} with {@code reference}, record by record.
     *
     * @throws IllegalArgumentException when the reference holds degraded records (it is not all-LSTM)
     *     or shares no record with the served run
     */
    public static Accuracy of(RunPredictions reference, RunPredictions served) {
        long referenceDegraded = reference.degraded();
        if (referenceDegraded > 0) {
            throw new IllegalArgumentException("the reference " + reference.csv() + " has " + referenceDegraded
                    + " degraded records, expected none (a run without --degrade, all predicted by the LSTM)");
        }
        long matched = 0;
        long degraded = 0;
        double squares = 0;
        double squaresDegraded = 0;
        double maxAbsDegraded = 0;
        double referenceSum = 0;
        long lstmDiffering = 0;
        double maxAbsLstm = 0;
        for (Map.Entry<RecordKey, Prediction> entry : served.byRecord().entrySet()) {
            Prediction expected = reference.byRecord().get(entry.getKey());
            if (expected == null) {
                continue;
            }
            Prediction got = entry.getValue();
            double difference = got.flow() - expected.flow();
            double square = difference * difference;
            matched++;
            squares += square;
            referenceSum += expected.flow();
            if (got.degraded()) {
                degraded++;
                squaresDegraded += square;
                maxAbsDegraded = Math.max(maxAbsDegraded, Math.abs(difference));
            } else if (difference != 0) {
                lstmDiffering++;
                maxAbsLstm = Math.max(maxAbsLstm, Math.abs(difference));
            }
        }
        if (matched == 0) {
            throw new IllegalArgumentException(served.csv() + " shares no record (detector, seq) with the reference "
                    + reference.csv() + ": not the same load");
        }
        return new Accuracy(
                served.label(),
                served.byRecord().size(),
                matched,
                degraded,
                squares / matched,
                degraded == 0 ? Double.NaN : squaresDegraded / degraded,
                degraded == 0 ? Double.NaN : maxAbsDegraded,
                referenceSum / matched,
                lstmDiffering,
                maxAbsLstm);
    }

    public double degradedShare() {
        return (double) degraded / matched;
    }

    /** Root of {@link #mse}, in veh/5 min. */
    public double rmse() {
        return Math.sqrt(mse);
    }
}
