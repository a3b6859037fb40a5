package org.itsrt.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --rate} and its second spelling {@code --speedup}: one rate, given one way. */
class RateOptionTest {

    @Command(name = "sample")
    static final class Sample implements Runnable {
        @Mixin
        RateOption rate;

        @Override
        public void run() {}
    }

    private static RateOption parse(String... args) {
        Sample sample = new Sample();
        new CommandLine(sample).parseArgs(args);
        return sample.rate;
    }

    /** What the command prints to stderr, and its exit code. */
    private static String refusal(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Sample());
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute(args)).isEqualTo(2);
        return err.toString();
    }

    @Test
    void aSpeedupOfTheFiveMinuteCadenceIsARatePerDetector() {
        assertThat(parse("--speedup", "3000").given()).as("the study's 10 Hz").isEqualTo(10.0);
        assertThat(parse("--speedup", "1").perDetector()).isEqualTo(1.0 / 300);
        assertThat(parse("--speedup", "600").perDetector()).isEqualTo(2.0);
        assertThat(parse("--rate", "20").perDetector()).isEqualTo(20.0);
        assertThat(parse().given()).isNull();
        assertThat(parse().perDetector()).isEqualTo(RateOption.STUDY_RATE_HZ);
        assertThat(RateOption.rateOfSpeedup(3000)).isEqualTo(10.0);
    }

    @Test
    void aRefusalNamesTheSpellingGiven() {
        assertThat(parse("--rate", "5").option()).isEqualTo("--rate");
        assertThat(parse("--speedup", "4.5e8").option())
                .isEqualTo("--speedup 450000000 (1500000 records/s per detector):");
    }

    @Test
    void bothSpellingsAtOnceAreRefusedInOneLine() {
        String err = refusal("--rate", "10", "--speedup", "3000");
        assertThat(err.lines().findFirst().orElseThrow())
                .contains("--rate=HZ, --speedup=X are mutually exclusive (specify only one)");
    }

    @Test
    void aSpeedupIsAPositiveFactor() {
        assertThat(refusal("--speedup", "0"))
                .startsWith("Invalid value for option '--speedup': expected a factor > 0 (3000 replays the "
                        + "5-minute cadence at 10 records/s per detector), got '0'");
        assertThat(refusal("--speedup", "fast")).contains("got 'fast'");
        assertThat(refusal("--speedup", "Infinity")).contains("got 'Infinity'");
    }
}
