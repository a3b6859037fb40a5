package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;
import org.junit.jupiter.api.Test;

class CampaignPlanTest {

    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};

    @Test
    void sendsAsManyHostileRecordsAsValidReadingsAndEveryKind() {
        CampaignPlan plan = CampaignPlan.generate(2_000, STUDY, 1);
        assertThat(plan.records()).hasSize(4_000);
        assertThat(plan.validReadings()).isEqualTo(2_000);
        assertThat(plan.counts().keySet()).containsExactlyInAnyOrder(FuzzKind.values());
        assertThat(plan.counts().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(2_000);
        assertThat(plan.counts().get(FuzzKind.RECORD_900KB)).isEqualTo(2);
        assertThat(plan.largestValue()).isGreaterThanOrEqualTo(900 * 1024);
        assertThat(plan.records().get(0).kind())
                .as("a valid reading comes first")
                .isNull();
    }

    @Test
    void aWarmupComesApartFlaggedAndTheCampaignsSeqsGoOnFromIt() throws Exception {
        CampaignPlan plan = CampaignPlan.generate(300, STUDY, 5, 12);
        assertThat(plan.warmup()).hasSize(12);
        assertThat(plan.records()).hasSize(600);
        assertThat(plan.validReadings()).isEqualTo(300);
        Map<Long, Long> lastSeq = new HashMap<>();
        for (FuzzRecord r : plan.warmup()) {
            ReadingRecord reading = RecordJson.readReading(r.value());
            assertThat(reading.warmup()).isTrue();
            assertThat(reading.seq()).isEqualTo(lastSeq.getOrDefault(reading.detector(), -1L) + 1);
            lastSeq.put(reading.detector(), reading.seq());
        }
        assertThat(lastSeq.values()).containsOnly(1L);
        FuzzRecord first = plan.records().get(0);
        ReadingRecord firstReading = RecordJson.readReading(first.value());
        assertThat(firstReading.warmup()).isFalse();
        assertThat(firstReading.seq())
                .as("after two warm-up readings per detector")
                .isEqualTo(2);
        // No warm-up: the very campaign the same size and seed always gave.
        List<FuzzRecord> without = CampaignPlan.generate(300, STUDY, 5, 0).records();
        List<FuzzRecord> before = CampaignPlan.generate(300, STUDY, 5).records();
        for (int i = 0; i < before.size(); i++) {
            assertThat(without.get(i).value()).isEqualTo(before.get(i).value());
        }
    }

    @Test
    void oneSeedAndSizeGiveTheSameBytes() {
        List<FuzzRecord> a = CampaignPlan.generate(300, STUDY, 5).records();
        List<FuzzRecord> b = CampaignPlan.generate(300, STUDY, 5).records();
        List<FuzzRecord> c = CampaignPlan.generate(300, STUDY, 6).records();
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).value()).isEqualTo(b.get(i).value());
        }
        assertThat(a.stream().map(r -> Arrays.hashCode(r.value())).toList())
                .isNotEqualTo(c.stream().map(r -> Arrays.hashCode(r.value())).toList());
    }

    /**
     * Every record is what its kind says, by the same reader the job validates with: the readings
     * and accepted kinds are valid with increasing seqs per detector, every other kind is rejected
     * with its category (seq and unknown detector by the job's own checks, mirrored here).
     */
    @Test
    void everyRecordIsRejectedOrAcceptedAsItsKindSays() throws Exception {
        CampaignPlan plan = CampaignPlan.generate(3_000, STUDY, 2);
        Set<Long> known = new HashSet<>();
        Arrays.stream(STUDY).forEach(known::add);
        Map<Long, Long> lastSeq = new HashMap<>();
        Map<String, Integer> categories = new HashMap<>();
        for (FuzzRecord record : plan.records()) {
            if (record.advised()) {
                ReadingRecord r = RecordJson.readReading(record.value());
                assertThat(r.detector()).isEqualTo(record.detector());
                assertThat(r.seq()).isEqualTo(record.seq()).isEqualTo(lastSeq.getOrDefault(r.detector(), -1L) + 1);
                assertThat(known).contains(r.detector());
                lastSeq.put(r.detector(), r.seq());
                continue;
            }
            String category = category(record, known, lastSeq);
            assertThat(category).as(record.label()).isEqualTo(record.kind().reasonCategory());
            categories.merge(category, 1, Integer::sum);
        }
        assertThat(categories.keySet())
                .containsExactlyInAnyOrder(Arrays.stream(FuzzKind.values())
                        .filter(k -> !k.accepted())
                        .map(FuzzKind::reasonCategory)
                        .distinct()
                        .toArray(String[]::new));
    }

    private static String category(FuzzRecord record, Set<Long> known, Map<Long, Long> lastSeq) {
        if (record.value() == null) {
            return "record has no value";
        }
        try {
            ReadingRecord r = RecordJson.readReading(record.value());
            if (!known.contains(r.detector())) {
                return "unknown detector";
            }
            if (r.seq() <= lastSeq.getOrDefault(r.detector(), -1L)) {
                return "seq not increasing";
            }
            return "(accepted)";
        } catch (RecordFormatException e) {
            return DeadLetterHeaders.category(e.getMessage());
        }
    }

    @Test
    void tooFewRecordsForEveryKindIsAUsageError() {
        assertThatThrownBy(() -> CampaignPlan.generate(5, STUDY, 1))
                .hasMessageContaining("--records must be at least " + FuzzKind.values().length);
    }
}
