package org.itsrt.probe.arrival;

/**
 * A record the probe could not measure: not JSON, not version 1, or lacking detector, seq or
 * sent_ns. It is counted and shown in the report; it never stops a run.
 *
 * @param reason    short category, e.g. {@code missing sent_ns}; reports group by it
 * @param detail    the parser's message, for the first few examples in the report
 * @param partition Kafka partition the record came from
 * @param offset    its offset there
 */
public record MalformedRecord(String reason, String detail, int partition, long offset) {}
