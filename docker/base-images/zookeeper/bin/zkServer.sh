#!/usr/bin/env bash
# zkServer.sh start-foreground | status | version  [CONFIG]: the server in the foreground, or
# whether it serves (the "srvr" four-letter word, which must be whitelisted; exit 1 if it does
# not answer), as the distribution's script does. JVMFLAGS and SERVER_JVMFLAGS are passed on.
set -euo pipefail
home=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-}
config=${2:-${ZOOCFGDIR:-$home/conf}/zoo.cfg}
classpath="$home/lib/*"
log_options=(-Dzookeeper.log.dir="${ZOO_LOG_DIR:-$home/logs}" -Dlogback.configurationFile="$home/conf/logback.xml")

client_port() {
  local port
  port=$(sed -n -e 's/^clientPort=\([0-9]*\).*/\1/p' "$config" | tail -1)
  # clientPort may instead be given on this server's line: server.N=host:2888:3888;PORT
  [ -n "$port" ] || port=$(sed -n -e 's/^server\.[0-9]*=.*;\(.*:\)\{0,1\}\([0-9]*\)$/\2/p' "$config" | head -1)
  echo "${port:-2181}"
}

case "$command" in
  start-foreground)
    # shellcheck disable=SC2086 # JVMFLAGS and SERVER_JVMFLAGS hold several options each
    exec java "${log_options[@]}" ${JVMFLAGS:-} ${SERVER_JVMFLAGS:-} -cp "$classpath" \
      org.apache.zookeeper.server.quorum.QuorumPeerMain "$config" ;;
  status)
    port=$(client_port)
    if answer=$(java -Dlogback.configurationFile="$home/conf/logback.xml" -cp "$classpath" \
                  org.apache.zookeeper.client.FourLetterWordMain localhost "$port" srvr 2>/dev/null) \
       && grep -q '^Mode:' <<< "$answer"; then
      echo "Client port found: $port. $(grep '^Mode:' <<< "$answer")"
      exit 0
    fi
    echo "Error contacting service on port $port. It is probably not running." >&2
    exit 1 ;;
  version)
    exec java -cp "$classpath" org.apache.zookeeper.version.VersionInfoMain ;;
  *)
    echo "Usage: $0 {start-foreground|status|version} [CONFIG]" >&2
    exit 1 ;;
esac
