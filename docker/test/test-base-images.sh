#!/usr/bin/env bash
# Tests of the stand-in images' entry points without a Docker engine: each runs on this host
# against a scratch folder laid out as the image is, with Java's tools replaced by recorders.
#   Flink: what the entry point asks the distribution's config parser to set (the official
#          image's variables), and which bin/ script it runs for each command.
#   ZooKeeper: the zoo.cfg and myid it writes from the ZOO_* variables, and that a mounted
#          zoo.cfg is left alone.
# Exits 0 only if every test passes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMAGES=$(dirname "$HERE")/base-images
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() { printf '    %s\n' "$@" >&2; exit 1; }
expect_file() { # FILE EXPECTED-CONTENT
  local got
  got=$(cat "$1")
  [ "$got" = "$2" ] || fail "$1 differs (expected, then actual):" "$(diff <(echo "$2") <(echo "$got") || true)"
}
run_test() { printf 'test %s\n' "$1"; "$1"; }

# --- Flink ---------------------------------------------------------------------------------

# A FLINK_HOME whose config parser and bin/ scripts record their arguments, one per line.
fake_flink_home() {
  FLINK_HOME=$WORK/flink.$RANDOM$RANDOM
  mkdir -p "$FLINK_HOME/bin" "$FLINK_HOME/conf" "$FLINK_HOME/opt" "$FLINK_HOME/plugins"
  local script
  for script in config-parser-utils.sh jobmanager.sh taskmanager.sh standalone-job.sh historyserver.sh; do
    printf '#!/usr/bin/env bash\nprintf "%%s\\n" "%s" "$@" >> "%s/calls"\n' "$script" "$FLINK_HOME" > "$FLINK_HOME/bin/$script"
    chmod +x "$FLINK_HOME/bin/$script"
  done
  export FLINK_HOME
  unset JOB_MANAGER_RPC_ADDRESS TASK_MANAGER_NUMBER_OF_TASK_SLOTS FLINK_PROPERTIES ENABLE_BUILT_IN_PLUGINS
  export DISABLE_JEMALLOC=true
}
flink_entrypoint() { "$IMAGES/flink/docker-entrypoint.sh" "$@" > "$WORK/out" 2> "$WORK/err"; }

test_flink_jobmanager_defaults() {
  fake_flink_home
  JOB_MANAGER_RPC_ADDRESS=jm-1 flink_entrypoint jobmanager
  expect_file "$FLINK_HOME/calls" "config-parser-utils.sh
$FLINK_HOME/conf
$FLINK_HOME/bin
$FLINK_HOME/lib
-Djobmanager.rpc.address=jm-1
-Dblob.server.port=6124
-Dquery.server.port=6125
jobmanager.sh
start-foreground"
}

test_flink_properties_and_slots() {
  fake_flink_home
  export REGION=eu
  JOB_MANAGER_RPC_ADDRESS=jm TASK_MANAGER_NUMBER_OF_TASK_SLOTS=4 FLINK_PROPERTIES="
rest.address: jobmanager-2
  state.backend.type :  hashmap
metrics.scope.jm: \${REGION}.jobmanager
" flink_entrypoint taskmanager -Dextra=1
  unset REGION
  expect_file "$FLINK_HOME/calls" "config-parser-utils.sh
$FLINK_HOME/conf
$FLINK_HOME/bin
$FLINK_HOME/lib
-Djobmanager.rpc.address=jm
-Dblob.server.port=6124
-Dquery.server.port=6125
-Dtaskmanager.numberOfTaskSlots=4
config-parser-utils.sh
$FLINK_HOME/conf
$FLINK_HOME/bin
$FLINK_HOME/lib
-Drest.address=jobmanager-2
-Dstate.backend.type=hashmap
-Dmetrics.scope.jm=eu.jobmanager
taskmanager.sh
start-foreground
-Dextra=1"
}

test_flink_malformed_property_fails_before_starting() {
  fake_flink_home
  if FLINK_PROPERTIES="rest.address jobmanager" flink_entrypoint jobmanager; then fail "accepted a line without ':'"; fi
  grep -q "FLINK_PROPERTIES: 'rest.address jobmanager' is not 'key: value'" "$WORK/err" || fail "stderr: $(cat "$WORK/err")"
  ! grep -q '^jobmanager.sh$' "$FLINK_HOME/calls" || fail "the JobManager started after a bad FLINK_PROPERTIES"
}

test_flink_plugins_and_pass_through() {
  fake_flink_home
  touch "$FLINK_HOME/opt/flink-s3-fs-hadoop-2.2.1.jar"
  JOB_MANAGER_RPC_ADDRESS=jm ENABLE_BUILT_IN_PLUGINS="flink-s3-fs-hadoop-2.2.1.jar" flink_entrypoint echo passed through
  [ -L "$FLINK_HOME/plugins/flink-s3-fs-hadoop-2.2.1/flink-s3-fs-hadoop-2.2.1.jar" ] || fail "plugin not linked"
  [ "$(cat "$WORK/out")" = "passed through" ] || fail "pass-through printed: $(cat "$WORK/out")"
  if JOB_MANAGER_RPC_ADDRESS=jm ENABLE_BUILT_IN_PLUGINS="missing.jar" flink_entrypoint jobmanager; then fail "accepted a missing plugin"; fi
  grep -q "Plugin missing.jar does not exist" "$WORK/err" || fail "stderr: $(cat "$WORK/err")"
}

test_flink_help_touches_nothing() {
  fake_flink_home
  flink_entrypoint help
  grep -q "Usage: docker-entrypoint.sh (jobmanager|standalone-job|taskmanager|history-server)" "$WORK/out" || fail "usage: $(cat "$WORK/out")"
  [ ! -e "$FLINK_HOME/calls" ] || fail "help changed the configuration"
}

# --- ZooKeeper -----------------------------------------------------------------------------

fake_zookeeper_dirs() {
  local base=$WORK/zk.$RANDOM$RANDOM
  mkdir -p "$base/conf" "$base/data" "$base/datalog"
  export ZOO_CONF_DIR=$base/conf ZOO_DATA_DIR=$base/data ZOO_DATA_LOG_DIR=$base/datalog
  export ZOO_TICK_TIME=2000 ZOO_INIT_LIMIT=5 ZOO_SYNC_LIMIT=2 ZOO_AUTOPURGE_PURGEINTERVAL=0
  export ZOO_AUTOPURGE_SNAPRETAINCOUNT=3 ZOO_MAX_CLIENT_CNXNS=60 ZOO_STANDALONE_ENABLED=true ZOO_ADMINSERVER_ENABLED=true
  unset ZOO_SERVERS ZOO_MY_ID ZOO_4LW_COMMANDS_WHITELIST ZOO_CFG_EXTRA
}

test_zookeeper_config_from_variables() {
  fake_zookeeper_dirs
  ZOO_TICK_TIME=500 ZOO_ADMINSERVER_ENABLED=false ZOO_4LW_COMMANDS_WHITELIST=ruok,srvr ZOO_CFG_EXTRA="metricsProvider.exportJvmInfo=false preAllocSize=1024" \
    "$IMAGES/zookeeper/docker-entrypoint.sh" true
  expect_file "$ZOO_CONF_DIR/zoo.cfg" "dataDir=$ZOO_DATA_DIR
dataLogDir=$ZOO_DATA_LOG_DIR
tickTime=500
initLimit=5
syncLimit=2
autopurge.snapRetainCount=3
autopurge.purgeInterval=0
maxClientCnxns=60
standaloneEnabled=true
admin.enableServer=false
server.1=localhost:2888:3888;2181
4lw.commands.whitelist=ruok,srvr
metricsProvider.exportJvmInfo=false
preAllocSize=1024"
  expect_file "$ZOO_DATA_DIR/myid" 1
}

test_zookeeper_ensemble_and_mounted_config() {
  fake_zookeeper_dirs
  ZOO_MY_ID=2 ZOO_SERVERS="server.1=zk1:2888:3888;2181 server.2=zk2:2888:3888;2181" "$IMAGES/zookeeper/docker-entrypoint.sh" true
  grep -qx "server.1=zk1:2888:3888;2181" "$ZOO_CONF_DIR/zoo.cfg" || fail "server.1 missing"
  grep -qx "server.2=zk2:2888:3888;2181" "$ZOO_CONF_DIR/zoo.cfg" || fail "server.2 missing"
  expect_file "$ZOO_DATA_DIR/myid" 2
  echo "tickTime=1234" > "$ZOO_CONF_DIR/zoo.cfg"
  ZOO_TICK_TIME=999 "$IMAGES/zookeeper/docker-entrypoint.sh" true
  expect_file "$ZOO_CONF_DIR/zoo.cfg" "tickTime=1234"
}

for test in $(declare -F | awk '{print $3}' | grep '^test_'); do
  run_test "$test"
done
echo "all base-image tests passed"
