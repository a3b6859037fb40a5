package org.itsrt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource(
            delimiter = '|',
            value = {
                // number and unit, every unit the old parsers read
                "500ms         | 500000000",
                "30s           | 30000000000",
                "2m            | 120000000000",
                "5min          | 300000000000",
                "1h            | 3600000000000",
                "250us         | 250000",
                "80ns          | 80",
                // fractions
                "1.5s          | 1500000000",
                "0.25s         | 250000000",
                "1.5h          | 5400000000000",
                "0.5ms         | 500000",
                // several units, largest first
                "1m30s         | 90000000000",
                "1h15m         | 4500000000000",
                "1h0m5s        | 3605000000000",
                "2s500ms       | 2500000000",
                "1m30.5s       | 90500000000",
                // a plain number is seconds; zero is a duration
                "10            | 10000000000",
                "0.5           | 500000000",
                "0             | 0",
                "0s            | 0",
                // case and spaces, as people type them
                "10S           | 10000000000",
                "' 2 m 30 s '  | 150000000000",
                "1H            | 3600000000000",
                // ISO-8601
                "PT30S         | 30000000000",
                "pt1m30s       | 90000000000",
                "PT0.5S        | 500000000",
            })
    void readsEveryAcceptedForm(String text, long nanos) {
        assertThat(Durations.parse(text, "--duration")).isEqualTo(Duration.ofNanos(nanos));
    }

    @Test
    void everyFormInTheExperimentFilesAndDocsIsRead() {
        // experiments/*.yaml (warmup), README.md and docs/*.md (--duration, --step-duration, --warmup)
        assertThat(Durations.parse("0s", "warmup")).isZero();
        for (String seconds : new String[] {"10", "20", "30", "45", "60", "70", "90", "120"}) {
            assertThat(Durations.parse(seconds + "s", "warmup")).isEqualTo(Duration.ofSeconds(Long.parseLong(seconds)));
        }
        assertThat(Durations.parse("5m", "--duration")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("10m", "--duration")).isEqualTo(Duration.ofMinutes(10));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "soon",
                "5x",
                "s",
                "ms",
                "1.s",
                ".5s",
                "1,5s",
                "1e3s",
                "10 seconds",
                "1m1m",
                "30s1m",
                "1s1s",
                "500ms1s",
                "5m-3s",
                "P",
                "PTxS",
                "1 2s",
                "12:00"
            })
    void refusesGarbageNamingTheOptionAndGivingExamples(String text) {
        assertThatThrownBy(() -> Durations.parse(text, "--step-duration"))
                .isInstanceOf(BadDurationException.class)
                .hasMessageStartingWith("--step-duration: '" + text + "'")
                .hasMessageContaining("e.g.");
    }

    @Test
    void refusesNegativeEmptyAndTooLongNamingTheKey() {
        assertThatThrownBy(() -> Durations.parse("-5s", "warmup"))
                .hasMessage("warmup: '-5s' is negative; a duration is 0 or more, e.g. " + Durations.EXAMPLES);
        assertThatThrownBy(() -> Durations.parse("PT-5S", "warmup"))
                .hasMessageStartingWith("warmup: 'PT-5S' is negative");
        assertThatThrownBy(() -> Durations.parse("", "warmup"))
                .hasMessageStartingWith("warmup: is empty; write a duration");
        assertThatThrownBy(() -> Durations.parse(null, "--window")).hasMessageStartingWith("--window: is empty");
        assertThatThrownBy(() -> Durations.parse("3000000h", "--duration"))
                .hasMessageStartingWith("--duration: '3000000h' is too long");
    }

    @Test
    void theOrderRuleIsExplained() {
        assertThatThrownBy(() -> Durations.parse("30s1m", "--duration"))
                .hasMessage("--duration: '30s1m' repeats a unit or puts a smaller one first; write the largest unit "
                        + "first, each once, e.g. 1h15m, 1m30s, 2s500ms");
    }

    @Test
    void withoutAPlaceTheMessageIsTheDetailAlone() {
        BadDurationException e = (BadDurationException) catchThrowable("soon", null);
        assertThat(e.where()).isNull();
        assertThat(e.getMessage()).isEqualTo(e.detail()).startsWith("'soon' is not a duration; write e.g. 500ms");
        BadDurationException named = (BadDurationException) catchThrowable("soon", "warmup");
        assertThat(named.where()).isEqualTo("warmup");
        assertThat(named.detail()).isEqualTo(e.detail());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "0             | 0s",
                "80            | 80ns",
                "12500         | 12.5us",
                "250000000     | 250ms",
                "1250000       | 1.25ms",
                "1000000000    | 1s",
                "1500000000    | 1.5s",
                "90000000000   | 1m30s",
                "120000000000  | 2m",
                "3600000000000 | 1h",
                "3601000000000 | 1h1s",
                "5400000000000 | 1h30m",
                "90000000001   | 1m30.000000001s",
            })
    void formatsCompactly(long nanos, String text) {
        assertThat(Durations.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }

    @Test
    void whatItFormatsItReadsBack() {
        long[] samples = {
            1,
            999,
            1_000,
            1_001,
            999_999,
            1_000_000,
            123_456_789,
            999_999_999,
            1_000_000_001,
            59_999_999_999L,
            60_000_000_000L,
            3_599_999_999_999L,
            86_400_000_000_000L,
            7 * 86_400_000_000_000L + 3
        };
        for (long nanos : samples) {
            Duration d = Duration.ofNanos(nanos);
            assertThat(Durations.parse(Durations.format(d), "x"))
                    .as(Durations.format(d))
                    .isEqualTo(d);
        }
        assertThat(Durations.format(Duration.ofSeconds(-90))).isEqualTo("-1m30s");
    }

    private static Throwable catchThrowable(String text, String where) {
        try {
            Durations.parse(text, where);
        } catch (BadDurationException e) {
            return e;
        }
        throw new AssertionError("accepted " + text);
    }
}
