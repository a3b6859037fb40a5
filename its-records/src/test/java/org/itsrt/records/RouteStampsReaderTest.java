package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteStampsReaderTest {

    @Test
    void readsTheIdentityAndStampsOfAnAnswerAsTheCodecWritesIt() throws Exception {
        RouteRecord answer = RouteRecordJsonTest.routed();

        RouteStamps s = RouteStampsReader.read(RouteRecordJson.write(answer));

        assertThat(s)
                .isEqualTo(new RouteStamps(
                        3,
                        17,
                        90211,
                        5_834_612_307_719L,
                        5_834_612_207_000L,
                        21_000,
                        4_800,
                        false,
                        RouteOutcome.ROUTED));
        assertThat(s.isAnswer()).isTrue();
        assertThat(s.hasIntended()).isTrue();
        assertThat(s.hasStages()).isTrue();
    }

    @Test
    void readsARequestWithoutOutcomeOrStages() throws Exception {
        RouteStamps s = RouteStampsReader.read(
                RouteRecordJson.write(RouteRecordJsonTest.request().withWarmup(true)));

        assertThat(s)
                .isEqualTo(new RouteStamps(
                        3,
                        17,
                        90211,
                        5_834_612_307_719L,
                        5_834_612_207_000L,
                        RecordStamps.ABSENT,
                        RecordStamps.ABSENT,
                        true,
                        null));
        assertThat(s.isAnswer()).isFalse();
        assertThat(s.hasStages()).isFalse();
    }

    @Test
    void theProbesViewKeysTheSequenceByStream() throws Exception {
        RouteStamps s = RouteStampsReader.read(RouteRecordJson.write(RouteRecordJsonTest.routed()));

        assertThat(s.toRecordStamps())
                .isEqualTo(new RecordStamps(
                        3,
                        17,
                        5_834_612_307_719L,
                        5_834_612_207_000L,
                        21_000,
                        RecordStamps.ABSENT,
                        4_800,
                        false,
                        false));
    }

    /**
     * The codec and the view agree on every answer the codec accepts: the view's fields are the
     * record's, whatever the outcome, the route's length or the flag.
     */
    @Test
    void theViewAgreesWithTheCodecOnRandomAnswers() throws Exception {
        Random random = new Random(23);
        for (int i = 0; i < 500; i++) {
            long origin = 1 + random.nextInt(1_000_000);
            long destination = origin + 1 + random.nextInt(1_000);
            RouteRequestRecord request = RouteRequestRecord.builder()
                    .traveller(1 + random.nextInt(Integer.MAX_VALUE))
                    .origin(origin)
                    .destination(destination)
                    .departure(Instant.ofEpochSecond(1_800_000_000L + random.nextInt(900)))
                    .requestedAt(Instant.ofEpochSecond(1_800_000_000L))
                    .stream(random.nextInt(Integer.MAX_VALUE))
                    .seq(random.nextInt(Integer.MAX_VALUE - 1))
                    .sentNs(random.nextLong())
                    .intendedNs(random.nextLong() | 1)
                    .warmup(random.nextBoolean())
                    .build();
            RouteRecord.Builder answer = RouteRecord.answering(request)
                    .networkVersion(random.nextInt(1 << 20))
                    .parseNs(random.nextInt(100_000))
                    .routeNs(random.nextInt(1_000_000));
            if (random.nextInt(4) == 0) {
                answer.unreachable();
            } else {
                List<Long> route = new ArrayList<>();
                route.add(origin);
                for (int k = random.nextInt(200); k > 0; k--) {
                    route.add(1L + random.nextInt(1_000_000));
                }
                route.add(destination);
                answer.routed(route, random.nextDouble() * RouteRecordJson.MAX_TRAVEL_TIME_S);
            }
            byte[] bytes = RouteRecordJson.write(answer.build());
            RouteRecord whole = RouteRecordJson.readRoute(bytes);
            RouteStamps view = RouteStampsReader.read(bytes);

            assertThat(view)
                    .isEqualTo(new RouteStamps(
                            whole.stream(),
                            whole.seq(),
                            whole.traveller(),
                            whole.sentNs(),
                            whole.intendedNs(),
                            whole.parseNs(),
                            whole.routeNs(),
                            whole.warmup(),
                            whole.outcome()));
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json at all                                                         | not JSON",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5                   | not JSON",
                "{\"stream\":1,\"seq\":0,\"seq\":1,\"traveller\":4,\"sent_ns\":5}        | not JSON",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5} []               | not JSON",
                "[1]                                                                     | not a JSON object",
                "{\"v\":2,\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5}          | unsupported version",
                "{\"seq\":0,\"traveller\":4,\"sent_ns\":5}                               | missing stream",
                "{\"stream\":1,\"traveller\":4,\"sent_ns\":5}                            | missing seq",
                "{\"stream\":1,\"seq\":0,\"sent_ns\":5}                                  | missing traveller",
                "{\"stream\":1,\"seq\":0,\"traveller\":4}                                | missing sent_ns",
                "{\"stream\":-1,\"seq\":0,\"traveller\":4,\"sent_ns\":5}                 | invalid stream",
                "{\"stream\":2147483648,\"seq\":0,\"traveller\":4,\"sent_ns\":5}         | invalid stream",
                "{\"stream\":\"1\",\"seq\":0,\"traveller\":4,\"sent_ns\":5}              | invalid stream",
                "{\"stream\":1,\"seq\":2147483647,\"traveller\":4,\"sent_ns\":5}         | invalid seq",
                "{\"stream\":1,\"seq\":0,\"traveller\":[4],\"sent_ns\":5}                | invalid traveller",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":99999999999999999999} | invalid sent_ns",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5,\"route_ns\":-1}  | invalid route_ns",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5,\"warmup\":1}     | invalid warmup",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5,\"outcome\":\"lost\"} | invalid outcome",
                "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5,\"outcome\":{}}   | invalid outcome",
            })
    void malformedRecordsAreNamedNotThrownAsCrashes(String json, String reason) {
        assertThatThrownBy(() -> RouteStampsReader.read(json.strip().getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(MalformedRecordException.class, e -> assertThat(e.reason())
                        .isEqualTo(reason));
    }

    @Test
    void theDetailOfAnUnknownOutcomeNamesTheKnownOnes() {
        byte[] json = "{\"stream\":1,\"seq\":0,\"traveller\":4,\"sent_ns\":5,\"outcome\":\"lost\"}"
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RouteStampsReader.read(json))
                .hasMessage("\"outcome\" is the string \"lost\", expected one of routed, unreachable, expired");
    }

    @Test
    void anEmptyValueAndRandomBytesAreMalformedNeverACrash() {
        assertThatThrownBy(() -> RouteStampsReader.read(null)).isInstanceOf(MalformedRecordException.class);
        assertThatThrownBy(() -> RouteStampsReader.read(new byte[0])).isInstanceOf(MalformedRecordException.class);
        Random random = new Random(29);
        for (int i = 0; i < 2_000; i++) {
            byte[] garbage = new byte[1 + random.nextInt(200)];
            random.nextBytes(garbage);
            if (i % 2 == 0) {
                garbage[0] = '{';
            }
            assertThatThrownBy(() -> RouteStampsReader.read(garbage)).isInstanceOf(MalformedRecordException.class);
        }
    }
}
