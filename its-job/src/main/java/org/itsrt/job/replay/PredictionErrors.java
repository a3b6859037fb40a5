package org.itsrt.job.replay;

import java.util.Map;
import java.util.TreeMap;

/**
 * Squared and absolute errors of the model's next-interval flow against what the station then
 * measured, beside those of the naive "next = last" guess, so a reader can tell whether the
 * model earns its cost on this data.
 */
final class PredictionErrors {

    /** Running sums of one station (or of all stations). */
    static final class Sums {
        long count;
        double modelSquared;
        double modelAbsolute;
        double lastValueSquared;
        double lastValueAbsolute;

        void add(double actual, double predicted, double lastValue) {
            count++;
            modelSquared += (predicted - actual) * (predicted - actual);
            modelAbsolute += Math.abs(predicted - actual);
            lastValueSquared += (lastValue - actual) * (lastValue - actual);
            lastValueAbsolute += Math.abs(lastValue - actual);
        }

        double modelMse() {
            return modelSquared / count;
        }

        double modelMae() {
            return modelAbsolute / count;
        }

        double lastValueMse() {
            return lastValueSquared / count;
        }

        double lastValueMae() {
            return lastValueAbsolute / count;
        }
    }

    private final Map<Long, Sums> byStation = new TreeMap<>();
    private final Sums all = new Sums();

    void add(long stationId, double actual, double predicted, double lastValue) {
        byStation.computeIfAbsent(stationId, id -> new Sums()).add(actual, predicted, lastValue);
        all.add(actual, predicted, lastValue);
    }

    Map<Long, Sums> byStation() {
        return byStation;
    }

    Sums all() {
        return all;
    }
}
