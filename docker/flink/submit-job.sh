#!/usr/bin/env bash
# The compose stack's `submit` service: runs the job jar with Flink's own client (`flink run
# --detached`, which finds the leading JobManager through ZooKeeper with the image's
# config.yaml) once a TaskManager has registered, waits until every task of the job runs, and
# exits 0. A running its-rt job is left alone, so that starting the stack again does not start
# a second job beside the one the cluster recovered. The arguments are the job's options
# (docs/job.md, section 3).
set -euo pipefail

JOB_JAR=/opt/its-rt/its-job.jar
JOB_NAME=its-rt
REST=${ITS_FLINK_REST:-http://jobmanager:8081}
TIMEOUT_S=${ITS_SUBMIT_TIMEOUT_S:-300}

say() { printf 'submit-job: %s\n' "$*"; }
die() { printf 'submit-job: %s\n' "$*" >&2; exit 1; }

# Prints the value of a numeric JSON field of the REST answer on stdin (the image has no jq).
json_number() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }

deadline=$((SECONDS + TIMEOUT_S))
until [ "$(wget -q -O - "$REST/overview" 2>/dev/null | json_number taskmanagers)" -ge 1 ] 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || die "no TaskManager registered at $REST within ${TIMEOUT_S} s"
  sleep 2
done

if flink list --running 2>/dev/null | grep -q ": $JOB_NAME (RUNNING)"; then
  say "job $JOB_NAME already runs; nothing to submit"
  exit 0
fi

say "flink run --detached $JOB_JAR $*"
output=$(flink run --detached "$JOB_JAR" "$@" 2>&1) || { printf '%s\n' "$output" >&2; die "flink run failed"; }
printf '%s\n' "$output"
job_id=$(printf '%s\n' "$output" | sed -n 's/.*JobID \([0-9a-f]\{32\}\).*/\1/p' | head -n 1)
[ -n "$job_id" ] || die "flink run printed no JobID"

# True when the job runs and so does every one of its tasks (the REST answer's status counts).
all_tasks_running() {
  local counts
  counts=$(wget -q -O - "$REST/jobs/$job_id" 2>/dev/null | tr -d ' \n' |
           sed -n 's/.*"status-counts":{\([^}]*\)}.*/\1/p')
  [ -n "$counts" ] || return 1
  if printf '%s\n' "$counts" | tr ',' '\n' | grep -v '^"RUNNING":' | grep -qv ':0$'; then
    return 1
  fi
  printf '%s\n' "$counts" | grep -q '"RUNNING":[1-9]'
}

# Every task running, then a moment for the Kafka source to take its starting offsets: records
# sent before that would not be read (the job starts at the latest offsets).
until all_tasks_running; do
  [ "$SECONDS" -lt "$deadline" ] || die "job $job_id did not run every task within ${TIMEOUT_S} s"
  sleep 2
done
sleep 5
say "job $job_id runs every task"
