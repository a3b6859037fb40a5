package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.itsrt.fuzz.FuzzRequest;
import org.itsrt.fuzz.RequestCampaignPlan;
import org.itsrt.fuzz.RequestFault;
import org.junit.jupiter.api.Test;

/**
 * The district campaign's catalogue of hostile and unusual requests ({@link RequestFault}) read by
 * both of {@link RouteRecordJson#readRequest}'s readers: the streaming pass takes exactly the
 * requests the tree reader accepts, as the tree reader reads them, and leaves every fault the
 * tree reader rejects to it. In this package because the two readers are the codec's own.
 */
class RequestFaultStreamingTest {

    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};

    @Test
    void theStreamingPassAcceptsWhatTheTreeReaderAcceptsOfEveryFault() throws RecordFormatException {
        RequestCampaignPlan plan = RequestCampaignPlan.generate(RequestFault.values().length * 3, STUDY, 29);
        Set<RequestFault> seen = EnumSet.noneOf(RequestFault.class);
        for (FuzzRequest r : plan.records()) {
            if (r.fault() != null) {
                seen.add(r.fault());
            }
            // A record without a value never reaches a reader: the job dead-letters it first.
            if (r.value() == null) {
                continue;
            }
            RouteRequestRecord byTree;
            try {
                byTree = RouteRecordJson.readRequestByTree(r.value());
            } catch (RecordFormatException e) {
                byTree = null;
            }
            // readRequest checks size and encoding before either reader parses.
            boolean parsed = r.fault() != RequestFault.EMPTY_VALUE
                    && r.fault() != RequestFault.TOO_LARGE
                    && r.fault() != RequestFault.NOT_UTF8;
            RouteRequestRecord streamed = parsed ? RouteRecordJson.streamValidRequest(r.value()) : null;
            assertThat(streamed).as(r.label()).isEqualTo(byTree);
            if (byTree != null) {
                assertThat(RouteRecordJson.readRequest(r.value())).as(r.label()).isEqualTo(byTree);
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(RequestFault.values());
    }
}
