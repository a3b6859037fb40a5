package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RouteRecordJson#readRequest} reads a valid request in one streaming pass and leaves every
 * other record to the tree reader. That is only sound when the two give every record the same
 * verdict: the same request, or the tree reader's reason. This holds them to it on valid requests
 * in any field order, with unknown fields and spaces, at the limits between fields, and on many
 * small corruptions of them.
 */
class RouteRequestStreamingTest {

    private static final Instant REQUESTED_AT = Instant.parse("2026-11-27T08:00:00Z");

    private static final String[] FIELDS = {
        RecordFields.VERSION,
        RecordFields.TRAVELLER,
        RecordFields.ORIGIN,
        RecordFields.DESTINATION,
        RecordFields.DEPARTURE,
        RecordFields.REQUESTED_AT,
        RecordFields.STREAM,
        RecordFields.SEQ,
        RecordFields.SENT_NS,
        RecordFields.INTENDED_NS,
        RecordFields.WARMUP,
        "mode",
        "via"
    };

    /** Fields a later version might add: ignored by both readers. */
    private static final String[] UNKNOWN = {
        "\"mode\":\"car\"", "\"via\":[1,{\"a\":[2,null]}]", "\"x\":null", "\"client\":{\"app\":\"its\"}"
    };

    @Test
    void bothReadersAgreeOnValidRequestsAndTheirCorruptions() {
        RecordCorruptions.holdToEachOther(
                random -> rearranged(RouteRecordJson.write(randomRequest(random)), random),
                FIELDS,
                RouteRequestStreamingTest::agree,
                new Random(20261127L));
    }

    @Test
    void bothReadersAgreeAtTheLimitsOfTheDeparture() {
        long tolerance = RouteRecordJson.DEPARTURE_TOLERANCE.toNanos();
        long lead = RouteRecordJson.MAX_DEPARTURE_LEAD.toNanos();
        long[] offsets = {-lead, -tolerance - 1, -tolerance, -tolerance + 1, 0, lead - 1, lead, lead + 1, 2 * lead};
        // Whole seconds, the form the streaming pass converts itself, and the fractions a wall clock gives.
        long[] fractions = {0, 250_000_000, 123_456_000, 987_654_321};
        for (long fraction : fractions) {
            Instant requestedAt = REQUESTED_AT.plusNanos(fraction);
            for (long offset : offsets) {
                RouteRequestRecord request = new RouteRequestRecord(
                        5, 764598, 774445, requestedAt.plusNanos(offset), requestedAt, 0, 3, 10, 9, false);
                String json = new String(RouteRecordJson.write(request), StandardCharsets.UTF_8);
                assertThat(agree(json)).as(json).isEqualTo(offset >= -tolerance && offset <= lead);
            }
        }
    }

    /**
     * True when both readers accept the record (with the same request, which the streaming pass
     * read), false when both reject it (with the tree reader's reason); fails otherwise.
     */
    private static boolean agree(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        String byTree = verdict(RouteRecordJson::readRequestByTree, bytes);
        assertThat(verdict(RouteRecordJson::readRequest, bytes)).as(json).isEqualTo(byTree);
        if (byTree.startsWith("rejected")) {
            return false;
        }
        assertThat(RouteRecordJson.streamValidRequest(bytes))
                .as("a valid request the streaming pass left to the tree: %s", json)
                .isNotNull();
        return true;
    }

    @FunctionalInterface
    private interface Reader {
        RouteRequestRecord read(byte[] bytes) throws RecordFormatException;
    }

    /** The request read, or the reason it was rejected with. */
    private static String verdict(Reader reader, byte[] bytes) {
        try {
            return reader.read(bytes).toString();
        } catch (RecordFormatException e) {
            return "rejected: " + e.getMessage();
        }
    }

    /** A request as producers draw them, now and then at or past a limit of the format. */
    private static RouteRequestRecord randomRequest(Random random) {
        Instant requestedAt = REQUESTED_AT.plusSeconds(random.nextInt(86_400)).plusNanos(fraction(random));
        long tolerance = RouteRecordJson.DEPARTURE_TOLERANCE.toNanos();
        long lead = RouteRecordJson.MAX_DEPARTURE_LEAD.toNanos();
        long[] limits = {-tolerance - 1, -tolerance, lead, lead + 1};
        long offset = random.nextInt(8) == 0
                ? limits[random.nextInt(limits.length)]
                : -tolerance + (long) (random.nextDouble() * (lead + tolerance));
        long origin = 700_000 + random.nextInt(4_800);
        long destination = random.nextInt(20) == 0 ? origin : 700_000 + random.nextInt(4_800);
        long sentNs = random.nextLong();
        return new RouteRequestRecord(
                random.nextInt(10) == 0 ? Long.MAX_VALUE : 1 + random.nextInt(1_000_000),
                origin,
                destination,
                requestedAt.plusNanos(offset),
                requestedAt,
                random.nextInt(10) == 0 ? Integer.MAX_VALUE : random.nextInt(8),
                random.nextInt(10) == 0 ? 0 : random.nextInt(1_000_000),
                sentNs,
                sentNs - random.nextInt(1_000_000),
                random.nextBoolean());
    }

    /** No fraction of a second, or one to the millisecond, microsecond or nanosecond. */
    private static long fraction(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000L;
            case 2 -> random.nextInt(1_000_000) * 1_000L;
            default -> random.nextInt(1_000_000_000);
        };
    }

    /** The written request with its fields in another order, unknown fields among them, or spaces. */
    private static String rearranged(byte[] written, Random random) {
        String json = new String(written, StandardCharsets.UTF_8);
        // A request's values hold no comma: its members split at each.
        List<String> members = new ArrayList<>(
                Arrays.asList(json.substring(1, json.length() - 1).split(",")));
        if (random.nextBoolean()) {
            Collections.shuffle(members, random);
        }
        if (random.nextInt(3) == 0) {
            members.add(random.nextInt(members.size() + 1), UNKNOWN[random.nextInt(UNKNOWN.length)]);
        }
        String separator = random.nextInt(6) == 0 ? " ,\n " : ",";
        return "{" + String.join(separator, members) + "}";
    }
}
