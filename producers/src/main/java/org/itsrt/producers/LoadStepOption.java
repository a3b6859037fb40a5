package org.itsrt.producers;

import java.time.Duration;
import org.itsrt.cli.BadDurationException;
import org.itsrt.cli.Durations;
import org.itsrt.producers.send.LoadStep;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --load-step AT,LENGTH,FACTOR}: the open-loop rate multiplied by FACTOR from AT after the
 * first record for LENGTH, then back, e.g. {@code 60s,120s,3} (the load a budget that follows it
 * is measured against).
 */
public final class LoadStepOption {

    @Option(
            names = "--load-step",
            paramLabel = "AT,LENGTH,FACTOR",
            converter = Converter.class,
            description = "multiply the rate by FACTOR from AT after the first record (warm-up included) for LENGTH, "
                    + "then return to it, e.g. 60s,120s,3 (default: a constant rate)")
    LoadStep step;

    /** The step given; {@link LoadStep#NONE} without one. */
    public LoadStep step() {
        return step == null ? LoadStep.NONE : step;
    }

    /** Null when not given. */
    public LoadStep given() {
        return step;
    }

    /** Reads {@code AT,LENGTH,FACTOR}. */
    public static LoadStep parse(String value) {
        String[] parts = value.split(",", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "expected AT,LENGTH,FACTOR, e.g. 60s,120s,3 (the rate x3 from 60 s for 120 s), got '" + value
                            + "'");
        }
        Duration at;
        Duration length;
        try {
            at = Durations.parse(parts[0].strip(), null);
            length = Durations.parse(parts[1].strip(), null);
        } catch (BadDurationException e) {
            throw new IllegalArgumentException(e.detail() + " in '" + value + "' (AT,LENGTH,FACTOR)");
        }
        double factor;
        try {
            factor = Double.parseDouble(parts[2].strip());
        } catch (NumberFormatException e) {
            factor = Double.NaN;
        }
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("expected a FACTOR > 0 in '" + value + "' (AT,LENGTH,FACTOR)");
        }
        if (length.isZero()) {
            throw new IllegalArgumentException("expected a LENGTH > 0 in '" + value + "' (AT,LENGTH,FACTOR)");
        }
        return new LoadStep(at, length, factor);
    }

    static final class Converter implements CommandLine.ITypeConverter<LoadStep> {
        @Override
        public LoadStep convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
