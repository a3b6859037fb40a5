package org.itsrt.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * One line for a Kafka client that a secured cluster refused: the login failed, or the user has no
 * ACL for a topic, group, transactional id or the cluster. The line names the user and the file
 * it came from ({@link KafkaClientConfig#who()}) and what was refused, so a command can print it
 * instead of a stack trace. Other failures are not refusals and give nothing.
 */
public final class KafkaRefusal {

    private KafkaRefusal() {}

    /**
     * A refusal already explained where the resources were known (the topics a call was on): its
     * message is the line, and {@link #explain} returns it as it is when it meets one among the
     * causes of a failure.
     */
    public static final class RefusedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public RefusedException(String line, Throwable cause) {
            super(line, cause);
        }
    }

    /** {@link #explain(Throwable, KafkaClientConfig, String, Collection)} as an exception to throw. */
    public static Optional<RefusedException> refused(
            Throwable failure, KafkaClientConfig config, String bootstrapServers, Collection<String> topics) {
        return explain(failure, config, bootstrapServers, topics).map(line -> new RefusedException(line, failure));
    }

    /**
     * Explains {@code failure} (or one of its causes) when it is a refusal by the cluster at
     * {@code bootstrapServers}.
     */
    public static Optional<String> explain(Throwable failure, KafkaClientConfig config, String bootstrapServers) {
        return explain(failure, config, bootstrapServers, List.of());
    }

    /**
     * {@link #explain(Throwable, KafkaClientConfig, String)} for a call on {@code topics}: they are
     * named when the refusal does not say which topic it was (Admin {@code describeTopics} does
     * not).
     */
    public static Optional<String> explain(
            Throwable failure, KafkaClientConfig config, String bootstrapServers, Collection<String> topics) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            Optional<String> line = explainOne(t, config, bootstrapServers, topics);
            if (line.isPresent()) {
                return line;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> explainOne(
            Throwable t, KafkaClientConfig config, String bootstrap, Collection<String> asked) {
        if (t instanceof RefusedException explained) {
            return Optional.of(explained.getMessage());
        }
        String who = config.who();
        if (t instanceof SaslAuthenticationException) {
            return Optional.of("Kafka at " + bootstrap + " refused the login of " + who + ": " + t.getMessage()
                    + " (check the user and password in sasl.jaas.config)");
        }
        if (t instanceof SslAuthenticationException) {
            return Optional.of("TLS with Kafka at " + bootstrap + " failed for " + who + ": " + t.getMessage()
                    + " (does ssl.truststore.* hold the CA that signed the brokers' certificates?)");
        }
        if (t instanceof AuthenticationException) {
            return Optional.of("Kafka at " + bootstrap + " refused the connection of " + who + ": " + t.getMessage());
        }
        if (t instanceof TopicAuthorizationException e) {
            Set<String> topics = new TreeSet<>(e.unauthorizedTopics().isEmpty() ? asked : e.unauthorizedTopics());
            return Optional.of(who + " may not use topic" + (topics.size() == 1 ? " " : "s ")
                    + (topics.isEmpty() ? "(unnamed)" : String.join(", ", topics)) + " on " + bootstrap
                    + ": no ACL allows it (" + t.getMessage() + ")");
        }
        if (t instanceof GroupAuthorizationException e) {
            return Optional.of(who + " may not use consumer group " + e.groupId() + " on " + bootstrap
                    + ": no ACL allows it (" + t.getMessage() + ")");
        }
        if (t instanceof TransactionalIdAuthorizationException) {
            return Optional.of(who + " may not use its transactional ids on " + bootstrap + ": no ACL allows it ("
                    + t.getMessage() + ")");
        }
        if (t instanceof ClusterAuthorizationException) {
            return Optional.of(who + " may not perform a cluster operation on " + bootstrap + ": no ACL allows it ("
                    + t.getMessage() + ")");
        }
        return Optional.empty();
    }
}
