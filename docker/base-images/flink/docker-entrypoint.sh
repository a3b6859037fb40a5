#!/usr/bin/env bash
# The entry point of the Flink stand-in image, written to the official image's documented
# behaviour (Flink's "Docker" deployment page):
#   jobmanager | taskmanager | standalone-job | history-server [ARGS...]
#                       the process in the foreground, from the distribution's own bin/ scripts
#   help                the usage
#   anything else       run as given
# before which config.yaml gets, through the distribution's config parser:
#   jobmanager.rpc.address   JOB_MANAGER_RPC_ADDRESS, default this container's host name
#   blob.server.port 6124, query.server.port 6125
#   taskmanager.numberOfTaskSlots   TASK_MANAGER_NUMBER_OF_TASK_SLOTS, when set
#   FLINK_PROPERTIES    one "key: value" per line, merged last (values through envsubst)
# ENABLE_BUILT_IN_PLUGINS (jar names of opt/, separated by ';') are linked into plugins/, and
# jemalloc is preloaded unless DISABLE_JEMALLOC=true.
set -eo pipefail

CONF_DIR=$FLINK_HOME/conf

# Sets KEY VALUE [KEY VALUE...] in config.yaml with the distribution's parser, which keeps the
# file's format (standard YAML) and replaces a key that is already there.
set_config() {
  local dynamic=()
  while [ $# -ge 2 ]; do
    dynamic+=("-D$1=$2")
    shift 2
  done
  [ ${#dynamic[@]} -eq 0 ] && return 0
  "$FLINK_HOME/bin/config-parser-utils.sh" "$CONF_DIR" "$FLINK_HOME/bin" "$FLINK_HOME/lib" "${dynamic[@]}" > /dev/null
}

# FLINK_PROPERTIES: "key: value" lines; blank lines skipped, the key and the value trimmed, the
# value's ${VARIABLES} expanded.
flink_properties() {
  local line key value pairs=()
  while IFS= read -r line || [ -n "$line" ]; do
    [[ "$line" =~ ^[[:space:]]*$ ]] && continue
    [[ "$line" == *:* ]] || { echo "FLINK_PROPERTIES: '$line' is not 'key: value'" >&2; exit 1; }
    key=${line%%:*}
    value=${line#*:}
    key=$(printf '%s' "$key" | tr -d '[:space:]')
    value=$(printf '%s' "$value" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | envsubst)
    pairs+=("$key" "$value")
  done <<< "$FLINK_PROPERTIES"
  set_config "${pairs[@]}"
}

enable_plugins() {
  local jar name
  [ -n "${ENABLE_BUILT_IN_PLUGINS:-}" ] || return 0
  for jar in ${ENABLE_BUILT_IN_PLUGINS//;/ }; do
    name=${jar%.jar}
    [ -e "$FLINK_HOME/opt/$jar" ] || { echo "Plugin $jar does not exist in $FLINK_HOME/opt" >&2; exit 1; }
    mkdir -p "$FLINK_HOME/plugins/$name"
    ln -fs "$FLINK_HOME/opt/$jar" "$FLINK_HOME/plugins/$name/"
  done
}

preload_jemalloc() {
  local lib
  [ "${DISABLE_JEMALLOC:-false}" = true ] && return 0
  for lib in "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so"; do
    if [ -f "$lib" ]; then
      export LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$lib"
      return 0
    fi
  done
  echo "WARNING: jemalloc not found; glibc's allocator is used" >&2
}

if [ "$(id -u)" = 0 ]; then
  echo "WARNING: running Flink as root; the image's user is flink (9999)" >&2
fi

case "${1:-help}" in
  help)
    echo "Usage: $(basename "$0") (jobmanager|standalone-job|taskmanager|history-server) [ARGS...] | help | COMMAND..."
    exit 0 ;;
esac

preload_jemalloc
enable_plugins
config=(jobmanager.rpc.address "${JOB_MANAGER_RPC_ADDRESS:-$(hostname -f)}"
        blob.server.port 6124
        query.server.port 6125)
[ -n "${TASK_MANAGER_NUMBER_OF_TASK_SLOTS:-}" ] && config+=(taskmanager.numberOfTaskSlots "$TASK_MANAGER_NUMBER_OF_TASK_SLOTS")
set_config "${config[@]}"
[ -n "${FLINK_PROPERTIES:-}" ] && flink_properties

command=$1
case "$command" in
  jobmanager)     shift; echo "Starting Job Manager";     exec "$FLINK_HOME/bin/jobmanager.sh" start-foreground "$@" ;;
  standalone-job) shift; echo "Starting Job Manager";     exec "$FLINK_HOME/bin/standalone-job.sh" start-foreground "$@" ;;
  taskmanager)    shift; echo "Starting Task Manager";    exec "$FLINK_HOME/bin/taskmanager.sh" start-foreground "$@" ;;
  history-server) shift; echo "Starting History Server";  exec "$FLINK_HOME/bin/historyserver.sh" start-foreground "$@" ;;
  *)              exec "$@" ;;
esac
