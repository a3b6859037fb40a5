#!/usr/bin/env bash
# zkCli.sh [-server HOST:PORT] [COMMAND]: ZooKeeper's command-line client.
home=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2086 # JVMFLAGS and CLIENT_JVMFLAGS hold several options each
exec java -Dlogback.configurationFile="$home/conf/logback.xml" ${JVMFLAGS:-} ${CLIENT_JVMFLAGS:-} \
  -cp "$home/lib/*" org.apache.zookeeper.ZooKeeperMain "$@"
