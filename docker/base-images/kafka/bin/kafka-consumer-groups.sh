#!/usr/bin/env bash
# kafka-consumer-groups.sh: consumer groups, their members and lag (org.apache.kafka.tools.consumer.group.ConsumerGroupCommand).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"
