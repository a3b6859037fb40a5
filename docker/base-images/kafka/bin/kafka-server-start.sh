#!/usr/bin/env bash
# kafka-server-start.sh server.properties [--override key=value ...]: the broker in the foreground.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: kafka-server-start.sh server.properties [--override property=value]*" >&2; exit 1; }
base=$(cd "$(dirname "$0")/.." && pwd)
export KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}
export KAFKA_LOG4J_OPTS=${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$base/config/log4j2.yaml}
exec "$base/bin/kafka-run-class.sh" kafka.Kafka "$@"
