#!/usr/bin/env bash
# The compose stack end to end, as a user runs it, on the project's own Docker engine
# (docker/engine.sh: installed when missing, started here and stopped at the end): the stand-in
# base images (docker/base-images/build.sh), `docker compose -f docker/compose.yaml up --build`,
# the job, producers and probe measuring N records; then it holds the run to what a user is
# promised: the probe exits 0, every record measured, none lost, the run folder on the host owned
# by the user who asked, the Flink web UI answering on 127.0.0.1. `docker compose down -v` at
# the end, and the check fails if a container, network or volume of the stack is left.
#
#   docker/check/check-stack.sh [--records N] [--keep-engine]
#
# --records N     records to send and measure (default 600: a minute at the study's rate)
# --keep-engine   leave the engine running afterwards (its images are cached either way)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKER_DIR=$(dirname "$HERE")
ROOT=$(dirname "$DOCKER_DIR")
PROJECT=its-rt-check
RECORDS=600
KEEP_ENGINE=false

say() { printf 'check-stack: %s\n' "$*"; }
die() { printf 'check-stack: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --records) [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "--records: expected a positive number of records"
               RECORDS=$2; shift 2 ;;
    --keep-engine) KEEP_ENGINE=true; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (expected --records N or --keep-engine)" ;;
  esac
done

# shellcheck source=tools.sh
. "$HERE/tools.sh"
cd "$ROOT"

compose() { "$COMPOSE" -p "$PROJECT" -f docker/compose.yaml "$@"; }
leftovers() {
  local label=com.docker.compose.project=$PROJECT
  { docker ps -a -q --filter "label=$label"
    docker network ls -q --filter "label=$label"
    docker volume ls -q --filter "label=$label"; } | wc -l
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if docker info > /dev/null 2>&1; then
    compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1 || true
  fi
  rm -f "${up_log:-}"
  [ "$KEEP_ENGINE" = true ] || "$DOCKER_DIR/engine.sh" stop > /dev/null
  exit "$status"
}

eval "$("$DOCKER_DIR/engine.sh" start | tail -1)"
trap cleanup EXIT
trap 'exit 130' INT TERM
"$DOCKER_DIR/base-images/build.sh"

started=$(date +%s)
say "building the stack's images (docker/Dockerfile) ..."
compose build --quiet
say "stack images built in $(( $(date +%s) - started )) s"

failures=0
check() { # DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then say "ok   $what"; else say "FAIL $what"; failures=$((failures + 1)); fi
}

run=check-$(date +%Y%m%d-%H%M%S)
# As a user runs it: the probe writes as ITS_UID (the user who runs the stack; as root, the
# compose file's default 1000, a user's usual uid), and results/ need not exist beforehand.
if [ "$(id -u)" = 0 ]; then owner=1000; else owner=$(id -u); export ITS_UID=$owner ITS_GID=$(id -g); fi
say "compose up: $RECORDS records, run folder results/docker/$run ..."
started=$(date +%s)
# The logs of every service that exited with an error or is unhealthy, for a failed start.
failed_services_logs() {
  local service
  for service in $(compose ps -a --format '{{.Service}} {{.State}} {{.ExitCode}} {{.Health}}' |
                   awk '($2 == "exited" && $3 != 0) || $4 == "unhealthy" {print $1}'); do
    say "--- the last lines of $service:"
    compose logs --no-color --tail 30 "$service" >&2
  done
}
up_log=$(mktemp)
if ! ITS_RUN=$run ITS_RECORDS=$RECORDS compose up -d --quiet-pull > "$up_log" 2>&1; then
  tail -3 "$up_log" >&2
  failed_services_logs
  die "compose up failed"
fi
say "every service up in $(( $(date +%s) - started )) s; waiting for the probe ..."
probe=$(compose ps -a -q probe)
[ -n "$probe" ] || die "the probe's container was not created"
probe_exit=$(docker wait "$probe")
say "probe exited $probe_exit after $(( $(date +%s) - started )) s"
[ "$probe_exit" = 0 ] || compose logs --no-color --tail 40 probe submit taskmanager >&2

check "the probe exits 0" test "$probe_exit" = 0
summary=results/docker/$run/summary.json
check "the run folder has summary.json" test -f "$summary"
if [ -f "$summary" ]; then
  read -r measured lost duplicated < <(python3 -c '
import json, sys
summary = json.load(open(sys.argv[1]))
total = summary["sequence"]["total"]
print(summary["records"]["measured"], total["lost"], total["duplicated"])' "$summary")
  say "measured $measured of $RECORDS, lost $lost, duplicated $duplicated"
  check "every record measured" test "$measured" = "$RECORDS"
  check "no record lost" test "$lost" = 0
  check "the run folder is owned by uid $owner" test "$(stat -c %u "results/docker/$run")" = "$owner"
fi
web_ui_answers() {
  python3 -c '
import json, sys, urllib.request
overview = json.load(urllib.request.urlopen("http://127.0.0.1:8081/overview", timeout=10))
sys.exit(0 if overview["taskmanagers"] >= 1 and overview["jobs-running"] >= 1 else 1)' 2> /dev/null
}
check "the Flink web UI answers on 127.0.0.1:8081 with the job running" web_ui_answers

compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1
check "compose down -v leaves no container, network or volume" test "$(leftovers)" = 0

[ "$failures" = 0 ] || die "$failures check(s) failed"
say "all checks passed"
