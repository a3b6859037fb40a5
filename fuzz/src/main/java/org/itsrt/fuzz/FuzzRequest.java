package org.itsrt.fuzz;

/**
 * One record of a district campaign as sent to the route-requests topic.
 *
 * @param fault  null for a valid request; else which hostile or unusual request it is
 * @param key    the Kafka key (a traveller id, as the request producers key requests), or null
 * @param value  the value; null for a record without one
 * @param stream the request's stream, where the job must answer it (a valid request or an
 *               accepted fault)
 * @param seq    the request's seq within its stream, where the job must answer it; -1 otherwise
 */
public record FuzzRequest(RequestFault fault, byte[] key, byte[] value, int stream, long seq) {

    /** Whether the job must answer this request, once. */
    public boolean answered() {
        return fault == null || fault.accepted();
    }

    /** What the report calls this record's kind. */
    public String label() {
        return fault == null ? "valid request" : fault.label();
    }

    public int size() {
        return value == null ? 0 : value.length;
    }
}
