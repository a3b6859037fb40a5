#!/usr/bin/env bash
# kafka-console-consumer.sh: a topic to standard output (org.apache.kafka.tools.consumer.ConsoleConsumer).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.ConsoleConsumer "$@"
