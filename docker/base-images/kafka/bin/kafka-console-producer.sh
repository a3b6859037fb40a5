#!/usr/bin/env bash
# kafka-console-producer.sh: standard input to a topic (org.apache.kafka.tools.ConsoleProducer).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.ConsoleProducer "$@"
