#!/usr/bin/env bash
# kafka-topics.sh: creates, lists, describes and deletes topics (org.apache.kafka.tools.TopicCommand).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.TopicCommand "$@"
