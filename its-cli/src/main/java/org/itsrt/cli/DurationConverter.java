package org.itsrt.cli;

import java.time.Duration;
import picocli.CommandLine;

/**
 * picocli's converter for {@link Duration} options, in {@link Durations}' syntax:
 * {@code @Option(names = "--duration", converter = DurationConverter.class)}. picocli puts the
 * option's name in front of a refusal ({@code Invalid value for option '--duration': 'soon' is not
 * a duration; write e.g. 500ms, 30s, ...}), so the detail here leaves it out.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value, null);
        } catch (BadDurationException e) {
            throw new CommandLine.TypeConversionException(e.detail());
        }
    }
}
