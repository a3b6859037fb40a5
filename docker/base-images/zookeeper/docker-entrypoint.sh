#!/usr/bin/env bash
# The ZooKeeper stand-in's entry point, written to the official image's documented variables:
# unless $ZOO_CONF_DIR/zoo.cfg exists (a mounted one wins), it is written from ZOO_TICK_TIME,
# ZOO_INIT_LIMIT, ZOO_SYNC_LIMIT, ZOO_MAX_CLIENT_CNXNS, ZOO_STANDALONE_ENABLED,
# ZOO_ADMINSERVER_ENABLED, ZOO_AUTOPURGE_PURGEINTERVAL, ZOO_AUTOPURGE_SNAPRETAINCOUNT,
# ZOO_4LW_COMMANDS_WHITELIST, the ensemble ZOO_SERVERS (default this server alone) and the lines
# of ZOO_CFG_EXTRA ("key=value" separated by spaces); ZOO_MY_ID (default 1) is written to
# $ZOO_DATA_DIR/myid unless it is there. Then the command runs (default zkServer.sh start-foreground).
set -euo pipefail

config=$ZOO_CONF_DIR/zoo.cfg
if [ ! -f "$config" ]; then
  {
    echo "dataDir=$ZOO_DATA_DIR"
    echo "dataLogDir=$ZOO_DATA_LOG_DIR"
    echo "tickTime=$ZOO_TICK_TIME"
    echo "initLimit=$ZOO_INIT_LIMIT"
    echo "syncLimit=$ZOO_SYNC_LIMIT"
    echo "autopurge.snapRetainCount=$ZOO_AUTOPURGE_SNAPRETAINCOUNT"
    echo "autopurge.purgeInterval=$ZOO_AUTOPURGE_PURGEINTERVAL"
    echo "maxClientCnxns=$ZOO_MAX_CLIENT_CNXNS"
    echo "standaloneEnabled=$ZOO_STANDALONE_ENABLED"
    echo "admin.enableServer=$ZOO_ADMINSERVER_ENABLED"
    if [ -z "${ZOO_SERVERS:-}" ]; then
      echo "server.1=localhost:2888:3888;2181"
    else
      for server in $ZOO_SERVERS; do echo "$server"; done
    fi
    if [ -n "${ZOO_4LW_COMMANDS_WHITELIST:-}" ]; then
      echo "4lw.commands.whitelist=$ZOO_4LW_COMMANDS_WHITELIST"
    fi
    for line in ${ZOO_CFG_EXTRA:-}; do echo "$line"; done
  } > "$config"
fi
if [ ! -f "$ZOO_DATA_DIR/myid" ]; then
  echo "${ZOO_MY_ID:-1}" > "$ZOO_DATA_DIR/myid"
fi
exec "$@"
