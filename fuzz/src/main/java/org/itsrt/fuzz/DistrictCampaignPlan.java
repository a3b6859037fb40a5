package org.itsrt.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.fuzz.DistrictJobRun.Item;
import org.itsrt.fuzz.DistrictJobRun.RequestKey;
import org.itsrt.fuzz.JobRun.AdviceKey;

/**
 * The records of a district campaign (docs/fuzz.md, "District campaign"): the study campaign's
 * readings and hostile readings ({@link CampaignPlan}) over the district's detectors, and as many
 * route requests with their faults ({@link RequestCampaignPlan}), sent in turn: a valid reading
 * and a hostile record, then a valid request and a hostile request, and so on.
 */
public record DistrictCampaignPlan(CampaignPlan readings, RequestCampaignPlan requests) {

    /**
     * @param records        hostile readings and as many valid ones, and as many hostile requests
     *                       and valid ones
     * @param stations       the district graph's detectors: the readings' detectors and the
     *                       requests' stations
     * @param warmupReadings flagged readings sent first in both runs, as {@link CampaignPlan}'s
     */
    public static DistrictCampaignPlan generate(int records, long[] stations, long seed, int warmupReadings) {
        return new DistrictCampaignPlan(
                CampaignPlan.generate(records, stations, seed, warmupReadings),
                RequestCampaignPlan.generate(records, stations, seed + 1));
    }

    /** Everything the fuzz run sends, in order. */
    List<Item> items() {
        return interleave(readings.records(), requests.records());
    }

    /** What the clean run sends: the records the job must predict or answer, in the same order. */
    List<Item> answered() {
        return interleave(readings.advised(), requests.answered());
    }

    private static List<Item> interleave(List<FuzzRecord> readings, List<FuzzRequest> requests) {
        List<Item> items = new ArrayList<>(readings.size() + requests.size());
        int r = 0;
        int q = 0;
        while (r < readings.size() || q < requests.size()) {
            // Two of each in turn: a valid record and the hostile one after it (the clean run: two valid).
            for (int n = 0; n < 2 && r < readings.size(); n++, r++) {
                FuzzRecord x = readings.get(r);
                items.add(new Item(
                        false, r, x.key(), x.value(), x.advised() ? new AdviceKey(x.detector(), x.seq()) : null));
            }
            for (int n = 0; n < 2 && q < requests.size(); n++, q++) {
                FuzzRequest x = requests.get(q);
                items.add(new Item(
                        true, q, x.key(), x.value(), x.answered() ? new RequestKey(x.stream(), x.seq()) : null));
            }
        }
        return items;
    }

    public int largestValue() {
        return Math.max(readings.largestValue(), requests.largestValue());
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s and %s", readings, requests);
    }
}
