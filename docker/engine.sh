#!/usr/bin/env bash
# A Docker engine of the project's own, beside any other on the host: its own data root, socket,
# bridge and address pool, so that what the checks build and run never touches a user's images,
# containers or networks. Debian's docker.io (installed when dockerd is missing; root only).
#
#   docker/engine.sh start     start it (if it is not running) and print the DOCKER_HOST and
#                              DOCKER_CONFIG to use: the latter gives `docker compose` (Compose v2
#                              from docker/.venv as the client's plugin), which docker.io lacks
#   docker/engine.sh stop      stop it: no daemon, shim, bridge or cgroup is left; its images stay
#                              cached
#   docker/engine.sh purge     stop it and delete its data root (every image it built)
#   docker/engine.sh status    whether it runs
#
# ITS_DOCKER_DATA_ROOT (default /var/lib/its-rt-docker) holds its images and volumes.
set -euo pipefail

DATA_ROOT=${ITS_DOCKER_DATA_ROOT:-/var/lib/its-rt-docker}
RUN_DIR=/run/its-rt-docker
SOCKET=$RUN_DIR/docker.sock
PIDFILE=$RUN_DIR/dockerd.pid
LOG=$RUN_DIR/dockerd.log
# The default bridge and the pool compose's networks come from: addresses no other engine here
# uses by default (Docker's own are 172.17.0.0/16 and up).
BRIDGE=itsrt0
BRIDGE_ADDRESS=10.213.255.1/24
ADDRESS_POOL=base=10.213.0.0/17,size=24
CONFIG_DIR=$RUN_DIR/config
export DOCKER_HOST=unix://$SOCKET

say() { printf 'engine: %s\n' "$*"; }
die() { printf 'engine: %s\n' "$*" >&2; exit 1; }

running() { [ -S "$SOCKET" ] && docker info > /dev/null 2>&1; }

# The client's configuration for this engine: `docker compose` as a plugin (apply-row.sh and a
# user's commands call it so), Compose being the pinned binary the checks install.
client_config() {
  # shellcheck source=check/tools.sh
  . "$(dirname "${BASH_SOURCE[0]}")/check/tools.sh"
  mkdir -p "$CONFIG_DIR/cli-plugins"
  ln -sfn "$COMPOSE" "$CONFIG_DIR/cli-plugins/docker-compose"
  echo "export DOCKER_HOST=$DOCKER_HOST DOCKER_CONFIG=$CONFIG_DIR"
}

install_engine() {
  local packages=(docker.io debootstrap iptables iproute2 procps)
  command -v dockerd > /dev/null && command -v debootstrap > /dev/null && command -v ip > /dev/null \
    && command -v pgrep > /dev/null && return 0
  [ "$(id -u)" = 0 ] || die "dockerd, debootstrap, ip or pgrep is missing and only root can install them (apt-get install ${packages[*]})"
  say "installing Debian's ${packages[*]} ..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}" > /dev/null \
    || { apt-get update -q > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}" > /dev/null; } \
    || die "could not install ${packages[*]} with apt-get"
  command -v docker > /dev/null || die "docker.io installed no docker client"
}

start() {
  if running; then
    say "running ($DOCKER_HOST)"
    client_config
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "starting a Docker daemon needs root"
  install_engine
  mkdir -p "$RUN_DIR" "$DATA_ROOT"
  if ! ip link show "$BRIDGE" > /dev/null 2>&1; then
    ip link add name "$BRIDGE" type bridge
    ip addr add "$BRIDGE_ADDRESS" dev "$BRIDGE"
  fi
  ip link set "$BRIDGE" up
  # setsid: the daemon is not in the caller's process group, so a Ctrl-C of the caller reaches
  # the caller, whose stop (or trap) ends the daemon in order.
  setsid dockerd --data-root "$DATA_ROOT" --exec-root "$RUN_DIR/exec" --pidfile "$PIDFILE" \
    --host "$DOCKER_HOST" --bridge "$BRIDGE" --default-address-pool "$ADDRESS_POOL" \
    > "$LOG" 2>&1 < /dev/null &
  local waited=0
  until running; do
    if ! kill -0 $! 2> /dev/null; then
      tail -15 "$LOG" >&2
      stop_quietly
      die "dockerd exited at start (log above, $LOG)"
    fi
    [ "$waited" -lt 60 ] || { stop_quietly; die "dockerd did not answer within 60 s ($LOG)"; }
    sleep 1
    waited=$((waited + 1))
  done
  say "started: $(docker version --format 'Docker {{.Server.Version}}, API {{.Server.APIVersion}}'), data root $DATA_ROOT"
  client_config
}

# dockerd leaves its cgroup parents (docker/, docker/buildkit/) in every controller, empty, when
# it stops. Removed unless another engine runs; the kernel refuses to remove a cgroup that still
# has a process or a child, so nothing in use goes.
remove_empty_cgroups() {
  local dir
  pgrep -x dockerd > /dev/null && return 0
  for dir in /sys/fs/cgroup/*/docker/buildkit /sys/fs/cgroup/docker/buildkit /sys/fs/cgroup/*/docker /sys/fs/cgroup/docker; do
    if [ -d "$dir" ]; then rmdir "$dir" 2> /dev/null || true; fi
  done
}

stop_quietly() {
  local pid waited=0
  if [ -f "$PIDFILE" ]; then
    pid=$(cat "$PIDFILE")
    if kill -0 "$pid" 2> /dev/null; then
      kill -TERM "$pid"
      while kill -0 "$pid" 2> /dev/null && [ "$waited" -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
      kill -0 "$pid" 2> /dev/null && kill -KILL "$pid"
    fi
    rm -f "$PIDFILE"
  fi
  # The containerd it started, and any shim left of a container, are under its exec root.
  pkill -TERM -f -- "$RUN_DIR/exec" 2> /dev/null || true
  if ip link show "$BRIDGE" > /dev/null 2>&1; then ip link delete "$BRIDGE"; fi
  remove_empty_cgroups
  rm -f "$SOCKET"
  rm -rf "$CONFIG_DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop_quietly; say "stopped" ;;
  purge) stop_quietly; rm -rf --one-file-system "$DATA_ROOT"; say "stopped; $DATA_ROOT deleted" ;;
  status) if running; then say "running ($DOCKER_HOST)"; else say "not running"; exit 1; fi ;;
  *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
