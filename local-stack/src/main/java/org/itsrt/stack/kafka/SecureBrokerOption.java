package org.itsrt.stack.kafka;

import picocli.CommandLine.Option;

/** {@code --secure}: a local broker with SASL_SSL, SCRAM users and ACLs (docs/security.md). */
public final class SecureBrokerOption {

    @Option(
            names = "--secure",
            description = "a secured local broker: one SASL_SSL listener per broker (TLS with a CA made at start), "
                    + "SCRAM-SHA-512 users admin, job, producer and probe with random passwords, ACLs; each part "
                    + "connects as its own user, with a client properties file per user (docs/security.md)")
    boolean secure;

    public boolean given() {
        return secure;
    }
}
