#!/usr/bin/env bash
# kafka-broker-api-versions.sh: the API versions every broker supports; answers only when the brokers do (org.apache.kafka.tools.BrokerApiVersionsCommand).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
