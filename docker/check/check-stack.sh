#!/usr/bin/env bash
# The compose stack end to end, as a user runs it, on the project's own Docker engine
# (docker/engine.sh: installed when missing, started here and stopped at the end): the stand-in
# base images (docker/base-images/build.sh), the stack's images, then each scenario on a fresh
# stack (`docker compose up`, the job, producers and probe measuring N records, `docker compose
# down -v`), held to what a user is promised:
#
#   default           the probe exits 0 with every record measured and none lost; the run folder
#                     on the host is owned by the user who runs the stack (as root: uid 1000, the
#                     compose file's default); the Flink web UI answers on 127.0.0.1:8081;
#                     docker/apply-row.sh puts a study row on the TaskManager (read back from
#                     its cgroup files) and takes it off again
#   scale             ITS_PARALLELISM=2 --scale taskmanager=2: both TaskManagers run the job's tasks;
#                     none lost
#   broker-stop       -f docker/brokers-3.yaml, one broker stopped mid-run: none lost
#   jobmanager-kill   the leading JobManager's container killed mid-run: the standby takes over
#                     through ZooKeeper, the job runs again, none lost
#   experiment        the stack's brokers and Flink cluster only; ./its experiment on the host runs
#                     three of experiments/study-rtds.yaml's rows on them (--quick, one run each),
#                     each row set with docker/apply-row.sh and read back: every run measures every
#                     record, each run's applied.json holds its row's quota, and the TaskManager has
#                     no CPU limit afterwards
#
# Each fault is written to the run's faults.csv as it is injected, so the probe's report gives
# the silence, the delayed and duplicated records and the recovery around it. After every
# scenario, `down -v` must leave no container, network or volume of the stack; an interrupted
# check takes the stack down too.
#
#   docker/check/check-stack.sh [--records N] [--scenario NAME]... [--keep-engine]
#
# --records N       records each scenario sends and measures (default 1200: 20 s at the study's
#                   rate; a fault is injected once the probe has measured a third of them)
# --scenario NAME   run only this scenario (repeatable; default all five)
# --keep-engine     leave the engine running afterwards (its images are cached either way)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKER_DIR=$(dirname "$HERE")
ROOT=$(dirname "$DOCKER_DIR")
PROJECT=its-rt-check
ALL_SCENARIOS=(default scale broker-stop jobmanager-kill experiment)
# The rows the experiment scenario runs, with the CPU quota each sets (2 vCPUs x the budget).
EXPERIMENT_ROWS=(rtds-100000:200000 rtds-76750:153500 rtds-75000:150000)
RECORDS=1200
# A short warm-up (./its demo --quick's), so that a fault falls into a pipeline past its start.
WARMUP=10s
KEEP_ENGINE=false
SCENARIOS=()

say() { printf 'check-stack: %s\n' "$*"; }
die() { printf 'check-stack: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --records) [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "--records: expected a positive number of records"
               RECORDS=$2; shift 2 ;;
    --scenario) [ $# -ge 2 ] && [[ " ${ALL_SCENARIOS[*]} " == *" $2 "* ]] \
                  || die "--scenario: expected one of ${ALL_SCENARIOS[*]}"
                SCENARIOS+=("$2"); shift 2 ;;
    --keep-engine) KEEP_ENGINE=true; shift ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (expected --records N, --scenario NAME or --keep-engine)" ;;
  esac
done
[ ${#SCENARIOS[@]} -gt 0 ] || SCENARIOS=("${ALL_SCENARIOS[@]}")

# shellcheck source=tools.sh
. "$HERE/tools.sh"
cd "$ROOT"

# The compose files of the scenario being run (brokers-3.yaml added for broker-stop).
FILES=(-f docker/compose.yaml)
compose() { "$COMPOSE" -p "$PROJECT" "${FILES[@]}" "$@"; }
leftovers() {
  local label=com.docker.compose.project=$PROJECT
  { docker ps -a -q --filter "label=$label"
    docker network ls -q --filter "label=$label"
    docker volume ls -q --filter "label=$label"; } | wc -l
}
up_log=$(mktemp)
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if docker info > /dev/null 2>&1; then
    compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1 || true
  fi
  rm -f "$up_log"
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
check() { # DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then say "ok   $SCENARIO: $what"; else say "FAIL $SCENARIO: $what"; failures=$((failures + 1)); fi
}

# The logs of every service that exited with an error or is unhealthy, for a failed start.
failed_services_logs() {
  local service
  for service in $(compose ps -a --format '{{.Service}} {{.State}} {{.ExitCode}} {{.Health}}' |
                   awk '($2 == "exited" && $3 != 0) || $4 == "unhealthy" {print $1}'); do
    say "--- the last lines of $service:"
    compose logs --no-color --tail 30 "$service" >&2
  done
}

# GET a path of the Flink REST API on the host's published port, as JSON on stdout: the first
# JobManager's (8081) unless it was killed, then the second's (8082).
flink_rest() {
  python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
    "http://127.0.0.1:$REST_PORT$1"
}

# A fault, recorded in the run's faults.csv (the probe's report analyses it) and then injected.
inject() { # LABEL COMMAND...
  local label=$1
  shift
  printf '%s,%s\n' "$(date +%s%3N)" "$label" >> "results/docker/$RUN/faults.csv"
  say "$SCENARIO: fault: $label"
  "$@" > /dev/null
}

# The container of a service's first replica.
container_of() { compose ps -q "$1" | head -1; }

# The JobManager whose ResourceManager holds the leadership (the one that logged it last).
leading_jobmanager() {
  local service latest=0 leader="" at
  for service in jobmanager jobmanager-2; do
    at=$(docker logs --timestamps "$(container_of "$service")" 2>&1 |
         grep 'Resource manager service is granted leadership' | tail -1 | cut -d' ' -f1)
    [ -n "$at" ] || continue
    at=$(date -d "$at" +%s%N)
    if [ "$at" -gt "$latest" ]; then latest=$at; leader=$service; fi
  done
  echo "$leader"
}

# Waits until the probe has measured a third of the run's records (its progress lines: "its-probe:
# N records, ..."), so that a fault falls into a pipeline that carries records, not into its start.
wait_until_a_third_measured() {
  local deadline=$((SECONDS + 180)) measured=0
  while [ "$measured" -lt $((RECORDS / 3)) ]; do
    [ "$SECONDS" -lt "$deadline" ] || { say "$SCENARIO: the probe measured $measured records in 180 s; injecting anyway"; return; }
    sleep 1
    measured=$(compose logs --no-color probe 2>/dev/null | sed -n 's/.*its-probe: \([0-9,]*\) records, .*/\1/p' | tail -1 | tr -d ,)
    measured=${measured:-0}
  done
}

during_run_default() { :; }
during_run_scale() { :; }
during_run_broker-stop() {
  wait_until_a_third_measured
  inject "docker stop kafka-3" docker stop "$(container_of kafka-3)"
}
during_run_jobmanager-kill() {
  local leader
  leader=$(leading_jobmanager)
  [ -n "$leader" ] || { say "FAIL $SCENARIO: no JobManager logged that it leads"; failures=$((failures + 1)); return; }
  wait_until_a_third_measured
  inject "docker kill $leader (the leading JobManager)" docker kill "$(container_of "$leader")"
  LEADER=$leader
  if [ "$leader" = jobmanager ]; then REST_PORT=8082; fi
}

both_taskmanagers_run_tasks() {
  flink_rest /taskmanagers | python3 -c '
import json, sys
managers = json.load(sys.stdin)["taskmanagers"]
sys.exit(0 if len(managers) == 2 and all(m["slotsNumber"] - m["freeSlots"] >= 1 for m in managers) else 1)'
}
web_ui_shows_the_job_running() {
  flink_rest /overview | python3 -c '
import json, sys
overview = json.load(sys.stdin)
sys.exit(0 if overview["taskmanagers"] >= 1 and overview["jobs-running"] >= 1 else 1)'
}
folder_owner() { stat -c %u "results/docker/$RUN"; }

# The TaskManager's CPU bandwidth as its cgroup holds it, "QUOTA PERIOD" (-1 or max: none), read
# from the container's own cgroup files (v1 cpu controller or v2 cpu.max).
taskmanager_cgroup_bandwidth() {
  local id dir
  id=$(docker inspect --format '{{.Id}}' "$(container_of taskmanager)")
  for dir in $(find /sys/fs/cgroup -maxdepth 4 -type d -name "*$id*"); do
    if [ -f "$dir/cpu.max" ]; then
      cat "$dir/cpu.max"
      return
    elif [ -f "$dir/cpu.cfs_quota_us" ]; then
      echo "$(cat "$dir/cpu.cfs_quota_us") $(cat "$dir/cpu.cfs_period_us")"
      return
    fi
  done
  echo "no cgroup with CPU bandwidth found for $id"
}
# A study row on the running stack as ./its experiment --row-command applies it, then no limit
# again: docker/apply-row.sh, then what Docker says and what the kernel holds.
study_row_applies_and_restores() {
  COMPOSE_PROJECT_NAME=$PROJECT "$DOCKER_DIR/apply-row.sh" rtds-76750 > /dev/null || return 1
  local bandwidth
  bandwidth=$(taskmanager_cgroup_bandwidth)
  say "$SCENARIO: rtds-76750 on the TaskManager: docker inspect $(docker inspect --format '{{.HostConfig.CpuQuota}}/{{.HostConfig.CpuPeriod}}' "$(container_of taskmanager)"), cgroup $bandwidth"
  [ "$bandwidth" = "153500 100000" ] || return 1
  COMPOSE_PROJECT_NAME=$PROJECT "$DOCKER_DIR/apply-row.sh" --restore > /dev/null || return 1
  taskmanager_unlimited
}
taskmanager_unlimited() {
  local bandwidth
  bandwidth=$(taskmanager_cgroup_bandwidth)
  [ "$bandwidth" = "-1 100000" ] || [ "$bandwidth" = "max 100000" ]
}

# A scenario's stack did not start: what failed, then the stack taken down.
start_failed() {
  tail -3 "$up_log" >&2
  failed_services_logs
  say "FAIL $SCENARIO: compose up"
  failures=$((failures + 1))
  compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1 || true
}

# The experiment scenario: the stack without its own job, producers and probe, and the study's
# rows driven from the host as a user drives them (docs/experiments.md section 5).
run_experiment_scenario() {
  local started out rows=() quotas=() row status=0
  for row in "${EXPERIMENT_ROWS[@]}"; do rows+=("${row%%:*}"); quotas+=("${row##*:}"); done
  say "$SCENARIO: compose up (ZooKeeper, Kafka, topics, JobManager, TaskManager) ..."
  # The topics service may have exited by the time up returns: ps -a finds it either way.
  started=$(date +%s)
  if ! compose up -d --quiet-pull topics jobmanager taskmanager > "$up_log" 2>&1 \
     || [ "$(docker wait "$(compose ps -a -q topics)")" != 0 ]; then
    start_failed
    return
  fi
  say "$SCENARIO: brokers, topics and cluster up in $(( $(date +%s) - started )) s"
  out=results/experiments/$RUN
  say "$SCENARIO: ./its experiment experiments/study-rtds.yaml --rows $(IFS=,; echo "${rows[*]}") --quick ..."
  COMPOSE_PROJECT_NAME=$PROJECT ./its experiment experiments/study-rtds.yaml --out "$out" \
    --rows "$(IFS=,; echo "${rows[*]}")" --repetitions 1 --quick \
    --bootstrap-servers localhost:9092 --job-bootstrap-servers kafka:19092 \
    --flink-rest http://127.0.0.1:8081 --row-command docker/apply-row.sh > "$up_log" 2>&1 || status=$?
  [ "$status" = 0 ] || { tail -30 "$up_log" >&2; compose logs --no-color --tail 40 taskmanager >&2; }
  say "$SCENARIO: the experiment exited $status after $(( $(date +%s) - started )) s; results in $out"
  check "./its experiment runs three study rows on the stack, every record measured" test "$status" = 0
  local i applied
  for i in "${!rows[@]}"; do
    applied=$(find "$out/runs" -path "*${rows[$i]}*" -name applied.json 2> /dev/null | head -1)
    check "${rows[$i]} was applied to the TaskManager and read back (quota ${quotas[$i]})" \
      grep -q "quota ${quotas[$i]}" "${applied:-/nonexistent}"
  done
  check "the TaskManager has no CPU limit after the experiment" taskmanager_unlimited
  compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1
  check "compose down -v leaves no container, network or volume" test "$(leftovers)" = 0
}

run_scenario() {
  SCENARIO=$1
  REST_PORT=8081
  RUN=check-$(date +%Y%m%d-%H%M%S)-$SCENARIO
  FILES=(-f docker/compose.yaml)
  if [ "$SCENARIO" = experiment ]; then run_experiment_scenario; return; fi
  local environment=(ITS_RUN="$RUN" ITS_RECORDS="$RECORDS" ITS_WARMUP="$WARMUP") up_options=(-d --quiet-pull) started owner
  case "$SCENARIO" in
    scale) environment+=(ITS_PARALLELISM=2); up_options+=(--scale taskmanager=2) ;;
    broker-stop) FILES+=(-f docker/brokers-3.yaml) ;;
  esac
  # As a user runs it: the probe writes as ITS_UID, and results/ need not exist beforehand.
  if [ "$(id -u)" = 0 ]; then owner=1000; else owner=$(id -u); environment+=(ITS_UID="$owner" ITS_GID="$(id -g)"); fi

  say "$SCENARIO: compose up, $RECORDS records, run folder results/docker/$RUN ..."
  started=$(date +%s)
  if ! (export "${environment[@]}"; compose up "${up_options[@]}") > "$up_log" 2>&1; then
    start_failed
    return
  fi
  say "$SCENARIO: every service up in $(( $(date +%s) - started )) s (producers started)"
  "during_run_$SCENARIO"
  local probe probe_exit
  probe=$(container_of probe)
  probe_exit=$(docker wait "$probe")
  say "$SCENARIO: probe exited $probe_exit, $(( $(date +%s) - started )) s after compose up"
  [ "$probe_exit" = 0 ] || compose logs --no-color --tail 40 probe submit >&2

  check "the probe exits 0" test "$probe_exit" = 0
  local summary=results/docker/$RUN/summary.json measured lost duplicated faults
  check "the run folder has summary.json" test -f "$summary"
  if [ -f "$summary" ]; then
    read -r measured lost duplicated faults < <(python3 -c '
import json, sys
summary = json.load(open(sys.argv[1]))
total = summary["sequence"]["total"]
def fault(f):
    silence = "%.1f s" % f["silence"]["length_s"] if f["silence"] else "none"
    recovery = "%.1f s" % f["recovery_s"] if f["recovery_s"] is not None else "never"
    return "%s: silence %s, delayed %d, duplicated %d, recovered after %s" % (
        f["label"], silence, f["delayed"], f["duplicated"], recovery)
faults = "; ".join(fault(f) for f in summary["faults"]["marks"]) or "-"
print(summary["records"]["measured"], total["lost"], total["duplicated"], faults.replace(" ", "_"))' "$summary")
    say "$SCENARIO: measured $measured of $RECORDS, lost $lost, duplicated $duplicated; faults: ${faults//_/ }"
    check "no record lost" test "$lost" = 0
    check "every record measured" test "$measured" -ge "$RECORDS"
  fi
  case "$SCENARIO" in
    default)
      check "the run folder is owned by uid $owner" test "$(folder_owner)" = "$owner"
      check "the Flink web UI answers on 127.0.0.1:8081 with the job running" web_ui_shows_the_job_running
      check "docker/apply-row.sh sets a study row on the TaskManager's cgroup and restores it" study_row_applies_and_restores ;;
    scale)
      check "both TaskManagers run the job's tasks" both_taskmanagers_run_tasks ;;
    jobmanager-kill)
      check "the job runs again after the leading JobManager ($LEADER) was killed (REST on $REST_PORT)" web_ui_shows_the_job_running ;;
  esac

  compose down -v --remove-orphans --timeout 20 > /dev/null 2>&1
  check "compose down -v leaves no container, network or volume" test "$(leftovers)" = 0
}

for scenario in "${SCENARIOS[@]}"; do
  run_scenario "$scenario"
done

[ "$failures" = 0 ] || die "$failures check(s) failed"
say "all checks passed: ${SCENARIOS[*]}"
