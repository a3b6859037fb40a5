#!/usr/bin/env bash
# kafka-run-class.sh CLASS [ARGS...]: runs a class of Kafka's libs/ with the variables the
# binary distribution's script reads: KAFKA_HEAP_OPTS (default -Xmx256M), KAFKA_JVM_PERFORMANCE_OPTS
# (default G1 with short pauses), KAFKA_LOG4J_OPTS (default the tools' logging), KAFKA_JMX_OPTS
# and JMX_PORT, KAFKA_OPTS.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: kafka-run-class.sh CLASS [ARGS...]" >&2; exit 1; }
base=$(cd "$(dirname "$0")/.." && pwd)
class=$1
shift
heap=${KAFKA_HEAP_OPTS:--Xmx256M}
performance=${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true}
# The tools' logging as the broker's setup wrote it, or before that (a container that only runs a
# tool) the image's default.
tools_log4j=$base/config/tools-log4j2.yaml
[ -f "$tools_log4j" ] || tools_log4j=/etc/kafka/docker/tools-log4j2.yaml
log4j=${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$tools_log4j}
jmx=${KAFKA_JMX_OPTS:-}
if [ -n "${JMX_PORT:-}" ]; then
  jmx="$jmx -Dcom.sun.management.jmxremote.port=$JMX_PORT"
fi
# shellcheck disable=SC2086 # each variable holds several JVM options, split as the original script splits them
exec java $heap $performance $jmx $log4j ${KAFKA_OPTS:-} -cp "$base/libs/*" "$class" "$@"
