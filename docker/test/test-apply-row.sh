#!/usr/bin/env bash
# Tests of docker/apply-row.sh without a Docker daemon: the fake docker in test/bin is put first
# on PATH; it keeps a small stack's state, logs every call, and can be told to let an update not
# take. Each test asserts the exact docker calls, the state they leave, and the failure messages.
# Exits 0 only if every test passes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKER_DIR=$(dirname "$HERE")
APPLY=$DOCKER_DIR/apply-row.sh
export PATH="$HERE/bin:$PATH"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

TM1=3f2a9c1b7d01
TM2=8e4b6d2a0c92
JM=5c1d0e7f3a45
INSPECT="inspect --format {{.HostConfig.CpuPeriod}} {{.HostConfig.CpuQuota}} {{.HostConfig.CpuShares}}"
PS="compose -f $DOCKER_DIR/compose.yaml ps -q taskmanager"

# --- harness -----------------------------------------------------------------------------

# A fresh fake stack (see test/bin/docker for what it starts with), no knobs set, and none of
# the caller's Compose settings.
fresh_stack() {
  export FAKE_DOCKER_STATE=$WORK/stack.$RANDOM$RANDOM
  mkdir -p "$FAKE_DOCKER_STATE"
  unset FAKE_DOCKER_NOT_TAKE COMPOSE_FILE COMPOSE_PROJECT_NAME ITS_TASKMANAGER_CONTAINERS
  docker compose ps -q taskmanager >/dev/null # builds the stack's state
  forget_calls
}
forget_calls() { : >"$FAKE_DOCKER_STATE/calls"; }

# Runs apply-row.sh; leaves its exit status in STATUS, stdout in OUT, stderr in ERR.
apply() {
  set +e
  "$APPLY" "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

fail() {
  printf '    %s\n' "$@" >&2
  printf '    stdout: %s\n    stderr: %s\n' "${OUT:-}" "${ERR:-}" >&2
  exit 1
}
expect_status() { [ "$STATUS" = "$1" ] || fail "exit status $STATUS, expected $1"; }
expect_err() { grep -qF -- "$1" <<<"$ERR" || fail "stderr lacks: $1"; }
expect_out() { grep -qF -- "$1" <<<"$OUT" || fail "stdout lacks: $1"; }
# The docker calls since the last forget_calls, exactly and in order.
expect_calls() {
  local want got
  want=$(printf '%s\n' "$@")
  got=$(cat "$FAKE_DOCKER_STATE/calls")
  [ "$got" = "$want" ] || fail "docker calls differ (expected, then actual):" "$(diff <(echo "$want") <(echo "$got") || true)"
}
# The fake stack's record of a container: PERIOD QUOTA SHARES.
expect_container() { local got; got=$(cat "$FAKE_DOCKER_STATE/containers/$1"); [ "$got" = "$2" ] || fail "container $1 is '$got', expected '$2'"; }

# --- tests -------------------------------------------------------------------------------

# Table 4: each RTDS row sets the whole container's bandwidth, 2 vCPUs x the budget every
# 100 ms, on both TaskManagers in one update, and reads each back.
test_table4_rtds_rows() {
  local budget quota
  for budget in 100000 80000 77500 76750 76000 75000; do
    fresh_stack
    quota=$((2 * budget))
    apply "rtds-$budget"
    expect_status 0
    expect_calls \
      "$PS" \
      "update --cpu-period 100000 --cpu-quota $quota $TM1 $TM2" \
      "$INSPECT $TM1" \
      "$INSPECT $TM2"
    expect_container $TM1 "100000 $quota 0"
    expect_container $TM2 "100000 $quota 0"
    expect_container $JM "0 0 0"
    expect_out "apply-row: rtds-$budget applied to 2 taskmanager container(s): cpu_period 100000, cpu_quota $quota ($DOCKER_DIR/rows/rtds-$budget.yaml); read back:"
    expect_out "  $TM1: cpu period 100000, quota $quota, shares 0"
    expect_out "  $TM2: cpu period 100000, quota $quota, shares 0"
    expect_err "+ docker update --cpu-period 100000 --cpu-quota $quota $TM1 $TM2"
  done
}

# Table 5's cap: 153% of one CPU over 100 ms for the whole container.
test_credit_cap_row() {
  fresh_stack
  apply credit-cap153
  expect_status 0
  expect_calls "$PS" "update --cpu-period 100000 --cpu-quota 153000 $TM1 $TM2" "$INSPECT $TM1" "$INSPECT $TM2"
  expect_container $TM1 "100000 153000 0"
}

# Rows without a cap: no limit (quota -1, as 0 would be ignored and keep the last row's) and
# CFS's default weight.
test_rows_without_a_limit() {
  local r
  for r in credit-nocap credit2; do
    fresh_stack
    apply rtds-75000
    forget_calls
    apply "$r"
    expect_status 0
    expect_calls "$PS" "update --cpu-quota -1 --cpu-shares 1024 $TM1 $TM2" "$INSPECT $TM1" "$INSPECT $TM2"
    expect_container $TM1 "100000 -1 1024"
    expect_container $TM2 "100000 -1 1024"
    expect_out "apply-row: $r applied to 2 taskmanager container(s): cpu_shares 1024, no CPU limit"
    expect_out "  $TM2: cpu period 100000, quota -1, shares 1024"
  done
}

test_restore() {
  fresh_stack
  apply rtds-76750
  forget_calls
  apply --restore
  expect_status 0
  expect_calls "$PS" "update --cpu-quota -1 --cpu-shares 1024 $TM1 $TM2" "$INSPECT $TM1" "$INSPECT $TM2"
  expect_container $TM1 "100000 -1 1024"
  expect_out "apply-row: 2 taskmanager container(s) restored to no CPU limit (cpu quota -1, cpu shares 1024); read back:"
}

# A whole study in file order, then a restore: every row reads back what it set.
test_all_study_rows_in_order_then_restore() {
  fresh_stack
  local r
  for r in rtds-100000 rtds-80000 rtds-77500 rtds-76750 rtds-76000 rtds-75000 credit-nocap credit-cap153 credit2; do
    apply "$r"
    expect_status 0
    expect_out "$r applied to 2 taskmanager container(s)"
  done
  apply --restore
  expect_status 0
  expect_container $TM1 "100000 -1 1024"
}

# The failure paths: an update that does not take on one container is caught by the read-back,
# naming the row and the container.
test_update_that_does_not_take() {
  fresh_stack
  export FAKE_DOCKER_NOT_TAKE=$TM2
  apply rtds-76750
  expect_status 1
  expect_calls "$PS" "update --cpu-period 100000 --cpu-quota 153500 $TM1 $TM2" "$INSPECT $TM1" "$INSPECT $TM2"
  expect_err "row rtds-76750 did not take on container $TM2: cpu period 0, quota 0, shares 0; expected cpu period 100000, quota 153500 (docker inspect $TM2)"
  [ -z "$OUT" ] || fail "a row that did not take printed no success"
}

# Each setting is read back on its own: one that did not take fails the row though the others did.
test_single_settings_that_do_not_take() {
  fresh_stack
  export FAKE_DOCKER_NOT_TAKE=$TM1:period
  apply rtds-76750
  expect_status 1
  expect_err "row rtds-76750 did not take on container $TM1: cpu period 0, quota 153500, shares 0"
  fresh_stack
  export FAKE_DOCKER_NOT_TAKE=$TM2:quota
  apply rtds-76750
  expect_status 1
  expect_err "row rtds-76750 did not take on container $TM2: cpu period 100000, quota 0, shares 0"
  fresh_stack
  export FAKE_DOCKER_NOT_TAKE=$TM2:shares
  apply credit2
  expect_status 1
  expect_err "row credit2 did not take on container $TM2: cpu period 0, quota -1, shares 0; expected no quota (-1), shares 1024"
}

test_no_limit_that_does_not_take() {
  fresh_stack
  apply credit-cap153
  export FAKE_DOCKER_NOT_TAKE=$TM1
  apply credit-nocap
  expect_status 1
  expect_err "row credit-nocap did not take on container $TM1: cpu period 100000, quota 153000, shares 0; expected no quota (-1), shares 1024"
}

test_restore_that_does_not_take() {
  fresh_stack
  apply rtds-80000
  export FAKE_DOCKER_NOT_TAKE="$TM1 $TM2"
  apply --restore
  expect_status 1
  expect_err "restore did not take on container $TM1: cpu period 100000, quota 160000, shares 0"
}

test_no_container() {
  fresh_stack
  : >"$FAKE_DOCKER_STATE/services/taskmanager"
  apply rtds-76750
  expect_status 1
  expect_calls "$PS"
  expect_err "row rtds-76750: no running taskmanager container (docker $PS shows none)"
  apply --restore
  expect_status 1
  expect_err "restore: no running taskmanager container"
}

# The stack of COMPOSE_FILE and COMPOSE_PROJECT_NAME: left to docker compose, no -f of its own.
test_compose_file_and_project_from_the_environment() {
  fresh_stack
  export COMPOSE_FILE=/srv/its/docker/compose.yaml COMPOSE_PROJECT_NAME=its
  apply rtds-77500
  expect_status 0
  expect_calls \
    "COMPOSE_FILE=/srv/its/docker/compose.yaml COMPOSE_PROJECT_NAME=its compose ps -q taskmanager" \
    "update --cpu-period 100000 --cpu-quota 155000 $TM1 $TM2" \
    "$INSPECT $TM1" \
    "$INSPECT $TM2"
}

test_containers_named_directly() {
  fresh_stack
  export ITS_TASKMANAGER_CONTAINERS=$TM2
  apply rtds-76000
  expect_status 0
  expect_calls "update --cpu-period 100000 --cpu-quota 152000 $TM2" "$INSPECT $TM2"
  expect_container $TM1 "0 0 0"
  expect_container $TM2 "100000 152000 0"
  export ITS_TASKMANAGER_CONTAINERS="$TM1 gone"
  apply rtds-76000
  expect_status 1
  expect_err "No such container: gone"
  expect_err "row rtds-76000: docker update --cpu-period 100000 --cpu-quota 152000 $TM1 gone failed"
}

test_list() {
  apply --list
  expect_status 0
  expect_out "rtds-76750       cpu_period 100000, cpu_quota 153500"
  expect_out "credit-cap153    cpu_period 100000, cpu_quota 153000"
  expect_out "credit2          cpu_shares 1024, no CPU limit"
  [ "$(grep -c . <<<"$OUT")" = 10 ] || fail "expected a header and 9 rows"
}

test_unknown_row() {
  fresh_stack
  local r
  for r in rtds-12345 ../rows/rtds-76750 default-rtds; do
    apply "$r"
    expect_status 2
    expect_err "unknown row '$r' (rows in $DOCKER_DIR/rows: credit-cap153 credit-nocap credit2 rtds-100000"
  done
  expect_calls ""
}

test_usage() {
  apply
  expect_status 2
  expect_err "name a row, or --list, or --restore"
  apply rtds-76750 --restore
  expect_status 2
  expect_err "one of ROW, --restore or --list at a time"
  apply --rows "$WORK/nowhere" --list
  expect_status 1
  expect_err "$WORK/nowhere: no such folder of override files"
}

# Override files that say anything but the settings this script applies are refused, with file
# and line, before docker is called.
test_bad_override_files() {
  fresh_stack
  local dir=$WORK/rows
  mkdir -p "$dir"
  printf '%s\n' "# cpus instead" "services:" "  taskmanager:" "    cpus: 1.5" >"$dir/cpus.yaml"
  apply --rows "$dir" cpus
  expect_status 1
  expect_err "$dir/cpus.yaml:4: expected only taskmanager's cpu_period, cpu_quota or cpu_shares (a whole number > 0), got:     cpus: 1.5"
  printf '%s\n' "services:" "  jobmanager:" "    cpu_quota: 5000" >"$dir/other.yaml"
  apply --rows "$dir" other
  expect_status 1
  expect_err "$dir/other.yaml:2: expected 'services:' and then '  taskmanager:' before the settings"
  printf '%s\n' "services:" "  taskmanager:" "    cpu_quota: 50000" >"$dir/half.yaml"
  apply --rows "$dir" half
  expect_status 1
  expect_err "$dir/half.yaml: expected cpu_period with cpu_quota (a CPU limit), or cpu_shares alone (none)"
  printf '%s\n' "services:" "  taskmanager:" "    cpu_period: 100000" "    cpu_period: 50000" >"$dir/twice.yaml"
  apply --rows "$dir" twice
  expect_status 1
  expect_err "$dir/twice.yaml:4: cpu_period given twice"
  printf '%s\n' "services:" "  taskmanager:" >"$dir/empty.yaml"
  apply --rows "$dir" empty
  expect_status 1
  expect_err "$dir/empty.yaml: sets no cpu_period/cpu_quota or cpu_shares for taskmanager"
  expect_calls ""
  apply --rows "$dir" --list
  expect_status 1
}

# What docker itself refuses fails the row with docker's message.
test_docker_refuses() {
  fresh_stack
  local dir=$WORK/rows-short
  mkdir -p "$dir"
  printf '%s\n' "services:" "  taskmanager:" "    cpu_period: 100" "    cpu_quota: 200" >"$dir/short.yaml"
  apply --rows "$dir" short
  expect_status 1
  expect_err "CPU cfs period can not be less than 1ms"
  expect_err "row short: docker update --cpu-period 100 --cpu-quota 200 $TM1 $TM2 failed"
}

# --- run ---------------------------------------------------------------------------------

passed=0 failed=0
for t in $(declare -F | awk '$3 ~ /^test_/ { print $3 }'); do
  # In a subshell outside any condition, so that set -e stops a test at its first error too.
  set +e
  ( set -e; "$t" )
  status=$?
  set -e
  if [ "$status" = 0 ]; then
    passed=$((passed + 1))
  else
    printf 'FAIL %s\n' "$t" >&2
    failed=$((failed + 1))
  fi
done
printf 'docker apply-row tests: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
