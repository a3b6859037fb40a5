package org.itsrt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class DurationConverterTest {

    @Command(name = "sample")
    static final class Sample implements Runnable {
        @Option(names = "--duration", converter = DurationConverter.class)
        Duration duration;

        @Option(names = "--window", converter = DurationConverter.class, defaultValue = "1m30s")
        Duration window;

        @Override
        public void run() {}
    }

    @Test
    void optionsAreReadInTheSharedSyntaxDefaultsToo() {
        Sample sample = new Sample();
        new CommandLine(sample).parseArgs("--duration", "1.5s");

        assertThat(sample.duration).isEqualTo(Duration.ofMillis(1500));
        assertThat(sample.window).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aRefusalNamesTheOptionOnceWithExamples() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Sample());
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("--duration", "soon");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option '--duration': 'soon' is not a duration; write e.g. "
                        + Durations.EXAMPLES)
                .doesNotContain("--duration: '");
    }
}
