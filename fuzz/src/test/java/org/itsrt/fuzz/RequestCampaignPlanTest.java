package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.functions.ParseAndValidate;
import org.itsrt.job.functions.ParseRouteRequest;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.junit.jupiter.api.Test;

class RequestCampaignPlanTest {

    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};

    /** What the job's parser made of one record: the request it passed on, or the dead letter's reason. */
    private record Verdict(ValidRouteRequest answered, String reason) {}

    private static Verdict job(byte[] value) throws Exception {
        try (OneInputStreamOperatorTestHarness<RawReading, ValidRouteRequest> h =
                ProcessFunctionTestHarnesses.forProcessFunction(new ParseRouteRequest(STUDY))) {
            h.processElement(new RawReading("requests", 0, 7, value), 0);
            List<ValidRouteRequest> out = h.extractOutputValues();
            var side = h.getSideOutput(ParseAndValidate.DEAD_LETTERS);
            List<DeadLetter> letters = new ArrayList<>();
            if (side != null) {
                side.forEach(r -> letters.add(r.getValue()));
            }
            assertThat(out.size() + letters.size()).as("one verdict per record").isEqualTo(1);
            return out.isEmpty() ? new Verdict(null, letters.get(0).reason) : new Verdict(out.get(0), null);
        }
    }

    @Test
    void everyFaultIsWhatItsSpecSaysByTheReaderAndTheJobsParser() throws Exception {
        RequestCampaignPlan plan = RequestCampaignPlan.generate(RequestFault.values().length * 3, STUDY, 11);
        Set<RequestFault> seen = EnumSet.noneOf(RequestFault.class);
        for (FuzzRequest r : plan.records()) {
            Verdict verdict = job(r.value());
            if (r.answered()) {
                assertThat(verdict.reason()).as(r.label()).isNull();
                assertThat(verdict.answered().stream).isEqualTo(r.stream());
                assertThat(verdict.answered().seq).isEqualTo(r.seq());
                assertThat(new String(r.key(), java.nio.charset.StandardCharsets.US_ASCII))
                        .as("keyed by its traveller")
                        .isEqualTo(Long.toString(verdict.answered().traveller));
            } else {
                assertThat(verdict.reason()).as(r.label()).isNotNull();
                assertThat(DeadLetterHeaders.category(verdict.reason()))
                        .as(r.label() + ": " + verdict.reason())
                        .isEqualTo(r.fault().reasonCategory());
            }
            if (r.fault() != null) {
                seen.add(r.fault());
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(RequestFault.values());
    }

    @Test
    void theReaderAloneRejectsEveryFaultButTheJobsStationCheck() {
        RequestCampaignPlan plan = RequestCampaignPlan.generate(RequestFault.values().length, STUDY, 3);
        for (FuzzRequest r : plan.records()) {
            if (r.answered()) {
                continue;
            }
            if (r.fault().reasonCategory().equals(ParseRouteRequest.UNKNOWN_STATION)) {
                assertThat(r.value()).as(r.label()).satisfies(v -> RouteRecordJson.readRequest(v));
            } else if (r.value() == null) {
                assertThat(r.fault()).isEqualTo(RequestFault.NULL_VALUE);
            } else {
                assertThatThrownBy(() -> RouteRecordJson.readRequest(r.value()))
                        .as(r.label())
                        .isInstanceOf(RecordFormatException.class)
                        .satisfies(e -> assertThat(DeadLetterHeaders.category(e.getMessage()))
                                .isEqualTo(r.fault().reasonCategory()));
            }
        }
    }

    @Test
    void theLimitsThemselvesAreAccepted() throws Exception {
        RequestCampaignPlan plan = RequestCampaignPlan.generate(RequestFault.values().length, STUDY, 5);
        for (FuzzRequest r : plan.records()) {
            if (r.fault() == RequestFault.DEPARTURE_AT_TOLERANCE) {
                RouteRequestRecord q = RouteRecordJson.readRequest(r.value());
                assertThat(q.departure()).isEqualTo(q.requestedAt().minus(RouteRecordJson.DEPARTURE_TOLERANCE));
            }
            if (r.fault() == RequestFault.DEPARTURE_AT_MAX_LEAD) {
                RouteRequestRecord q = RouteRecordJson.readRequest(r.value());
                assertThat(q.departure()).isEqualTo(q.requestedAt().plus(RouteRecordJson.MAX_DEPARTURE_LEAD));
            }
            if (r.fault() == RequestFault.FAR_APART) {
                RouteRequestRecord q = RouteRecordJson.readRequest(r.value());
                assertThat(List.of(q.origin(), q.destination())).containsExactly(716847L, 774614L);
            }
        }
    }

    @Test
    void everyAnsweredRequestHasItsOwnSeqAndEveryRejectedOneCarriesAnAnsweredSeq() throws Exception {
        RequestCampaignPlan plan = RequestCampaignPlan.generate(400, STUDY, 9);
        assertThat(plan.records()).hasSize(800);
        assertThat(plan.validRequests()).isEqualTo(400);
        assertThat(plan.counts().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(400);
        List<FuzzRequest> answered = plan.answered();
        for (int i = 0; i < answered.size(); i++) {
            assertThat(answered.get(i).seq()).isEqualTo(i);
        }
        long lastSeq = answered.get(answered.size() - 1).seq();
        for (FuzzRequest r : plan.records()) {
            if (r.answered() || r.fault() == RequestFault.NULL_VALUE || r.fault() == RequestFault.EMPTY_VALUE) {
                continue;
            }
            // Were the job to accept it, its answer would be a second one of a seq a valid request has.
            String text = new String(r.value(), java.nio.charset.StandardCharsets.ISO_8859_1);
            java.util.regex.Matcher seq =
                    java.util.regex.Pattern.compile("\"seq\":(\\d+)").matcher(text);
            if (seq.find()) {
                assertThat(Long.parseLong(seq.group(1))).as(r.label()).isBetween(0L, lastSeq);
            }
        }
    }

    @Test
    void oneSeedAndSizeGiveTheSameBytes() {
        List<FuzzRequest> a = RequestCampaignPlan.generate(200, STUDY, 42).records();
        List<FuzzRequest> b = RequestCampaignPlan.generate(200, STUDY, 42).records();
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).value()).isEqualTo(b.get(i).value());
            assertThat(a.get(i).key()).isEqualTo(b.get(i).key());
        }
    }

    @Test
    void tooFewRecordsOrStationsAreRefusedByName() {
        assertThatThrownBy(() -> RequestCampaignPlan.generate(3, STUDY, 1))
                .hasMessageContaining("--records must be at least " + RequestFault.values().length);
        assertThatThrownBy(() -> RequestCampaignPlan.generate(100, new long[] {764598}, 1))
                .hasMessageContaining("needs two");
    }
}
