#!/usr/bin/env bash
# Tests of apply-row.sh without a hypervisor: the fake xl in test/bin is put first on PATH; it
# keeps a small host's state, logs every call, and can be told to let a setting not take.
# Each test asserts the exact xl calls, the state they leave, and the failure messages.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
XC=$(dirname "$HERE")
APPLY=$XC/apply-row.sh
ROWS_FILE=$XC/study-rows.tsv
export PATH="$HERE/bin:$PATH"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# --- harness -----------------------------------------------------------------------------

# A fresh fake host (see test/bin/xl for what it starts with), no knobs set.
fresh_host() {
  export FAKE_XL_STATE=$WORK/host.$RANDOM$RANDOM
  mkdir -p "$FAKE_XL_STATE"
  unset FAKE_XL_NOT_TAKE FAKE_XL_CREDIT2_NO_CAP
  xl list -c rt-vm >/dev/null # builds the host's state
  forget_calls
}
forget_calls() { : >"$FAKE_XL_STATE/calls"; }

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
# The xl calls since the last forget_calls, exactly and in order.
expect_calls() {
  local want got
  want=$(printf '%s\n' "$@")
  got=$(cat "$FAKE_XL_STATE/calls")
  [ "$got" = "$want" ] || fail "xl calls differ (expected, then actual):" "$(diff <(echo "$want") <(echo "$got") || true)"
}
# The fake host's record of a domain: ID POOL VCPUS PERIOD BUDGET EXTRATIME WEIGHT CAP.
expect_domain() { local got; got=$(cat "$FAKE_XL_STATE/domains/$1"); [ "$got" = "$2" ] || fail "domain $1 is '$got', expected '$2'"; }
expect_pools() { local got; got=$(ls "$FAKE_XL_STATE/pools" | tr '\n' ' '); [ "$got" = "$1" ] || fail "cpupools are '$got', expected '$1'"; }

# --- tests -------------------------------------------------------------------------------

# Table 4: each RTDS row, from the rt-vm in rt-rtds with defaults, issues exactly the change
# and the per-vCPU read-back, with the study's budgets over a 100 ms period.
test_table4_rtds_rows() {
  local budget
  for budget in 100000 80000 77500 76750 76000 75000; do
    fresh_host
    apply "rtds-$budget"
    expect_status 0
    expect_calls \
      "list -c rt-vm" \
      "cpupool-list rt-rtds" \
      "sched-rtds -d rt-vm -v all -p 100000 -b $budget -e 0" \
      "sched-rtds -d rt-vm -v all"
    expect_domain rt-vm "2 rt-rtds 2 100000 $budget 0 256 0"
    expect_out "rtds-$budget applied to rt-vm: cpupool rt-rtds (rtds), period 100000 us, budget $budget us, extratime 0 on 2 vCPUs"
  done
}

# Table 5: Credit needs another pool; the rt-* pools share pCPUs, so the old one is destroyed
# (the domain parked in Pool-0 meanwhile) and the new one created from its file.
test_table5_credit_nocap_switches_pool() {
  fresh_host
  apply credit-nocap
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit" \
    "cpupool-migrate rt-vm Pool-0" \
    "cpupool-destroy rt-rtds" \
    "cpupool-create $XC/pools/rt-credit.cfg" \
    "cpupool-migrate rt-vm rt-credit" \
    "list -c rt-vm" \
    "cpupool-list rt-credit" \
    "sched-credit -d rt-vm -w 256 -c 0" \
    "sched-credit -d rt-vm"
  expect_pools "Pool-0 rt-credit "
  expect_domain rt-vm "2 rt-credit 2 10000 4000 1 256 0"
}

test_table5_credit_cap153() {
  fresh_host
  apply credit-nocap
  forget_calls
  apply credit-cap153
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit" \
    "sched-credit -d rt-vm -w 256 -c 153" \
    "sched-credit -d rt-vm"
  expect_domain rt-vm "2 rt-credit 2 10000 4000 1 256 153"
  expect_out "credit-cap153 applied to rt-vm: cpupool rt-credit (credit), weight 256, cap 153; read back"
}

# Table 6: Credit2 where Xen has its caps: the weight and an explicit "no cap".
test_table6_credit2_with_cap_support() {
  fresh_host
  apply credit2
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit2" \
    "cpupool-migrate rt-vm Pool-0" \
    "cpupool-destroy rt-rtds" \
    "cpupool-create $XC/pools/rt-credit2.cfg" \
    "cpupool-migrate rt-vm rt-credit2" \
    "list -c rt-vm" \
    "cpupool-list rt-credit2" \
    "sched-credit2 -d rt-vm" \
    "sched-credit2 -d rt-vm -w 256 -c 0" \
    "sched-credit2 -d rt-vm"
  expect_domain rt-vm "2 rt-credit2 2 10000 4000 1 256 0"
}

# Credit2 without caps: the weight alone, as the study had to.
test_table6_credit2_without_cap_support() {
  fresh_host
  apply credit2
  forget_calls
  export FAKE_XL_CREDIT2_NO_CAP=1
  apply credit2
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit2" \
    "sched-credit2 -d rt-vm" \
    "sched-credit2 -d rt-vm -w 256" \
    "sched-credit2 -d rt-vm"
}

test_credit2_cap_row_fails_without_cap_support() {
  fresh_host
  export FAKE_XL_CREDIT2_NO_CAP=1
  printf '%s\n' "row	sched	pool	period_us	budget_us	extratime	weight	cap	source	study_max_ms" \
    "credit2-cap50	credit2	rt-credit2	-	-	-	256	50	test	-" >"$WORK/rows.tsv"
  apply --rows "$WORK/rows.tsv" credit2-cap50
  expect_status 1
  expect_err "row credit2-cap50: this Xen's credit2 has no cap"
}

# From Credit back to RTDS: the pool switch in the other direction; Xen gave the domain RTDS
# defaults on arrival, the row then sets its budget.
test_back_to_rtds_from_credit() {
  fresh_host
  apply credit-cap153
  forget_calls
  apply rtds-76750
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-rtds" \
    "cpupool-migrate rt-vm Pool-0" \
    "cpupool-destroy rt-credit" \
    "cpupool-create $XC/pools/rt-rtds.cfg" \
    "cpupool-migrate rt-vm rt-rtds" \
    "list -c rt-vm" \
    "cpupool-list rt-rtds" \
    "sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 0" \
    "sched-rtds -d rt-vm -v all"
  expect_domain rt-vm "2 rt-rtds 2 100000 76750 0 256 0"
}

# A whole study in file order, then a restore: every row reads back what it set.
test_all_study_rows_in_order_then_restore() {
  fresh_host
  local r
  for r in rtds-100000 rtds-80000 rtds-77500 rtds-76750 rtds-76000 rtds-75000 credit-nocap credit-cap153 credit2; do
    apply "$r"
    expect_status 0
    expect_out "$r applied to rt-vm"
  done
  apply --restore
  expect_status 0
  expect_domain rt-vm "2 rt-credit2 2 10000 4000 1 256 0"
}

# The failure paths: a setting that does not take is caught by the read-back and named.
test_rtds_setting_that_does_not_take() {
  fresh_host
  export FAKE_XL_NOT_TAKE=sched-rtds
  apply rtds-76750
  expect_status 1
  expect_err "row rtds-76750 did not take: vCPU 0 has period 10000 budget 4000 extratime yes; vCPU 1 has period 10000 budget 4000 extratime yes; expected period 100000 budget 76750 extratime no"
}

test_credit_cap_that_does_not_take() {
  fresh_host
  apply credit-nocap
  export FAKE_XL_NOT_TAKE=sched-credit
  apply credit-cap153
  expect_status 1
  expect_err "row credit-cap153 did not take: rt-vm has cap 0, expected 153"
}

test_credit2_weight_that_does_not_take() {
  fresh_host
  printf '%s\n' "row	sched	pool	period_us	budget_us	extratime	weight	cap	source	study_max_ms" \
    "credit2-w512	credit2	rt-credit2	-	-	-	512	0	test	-" >"$WORK/rows.tsv"
  export FAKE_XL_NOT_TAKE=sched-credit2
  apply --rows "$WORK/rows.tsv" credit2-w512
  expect_status 1
  expect_err "row credit2-w512 did not take: rt-vm has weight 256, expected 512"
}

test_pool_move_that_does_not_take() {
  fresh_host
  # A rt-credit pool already there (on the free pCPUs 12-13), so only the move is needed.
  xl cpupool-create "$(make_pool_file rt-credit credit '"12", "13"')" >/dev/null
  forget_calls
  export FAKE_XL_NOT_TAKE=cpupool-migrate
  apply credit-nocap
  expect_status 1
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit" \
    "cpupool-migrate rt-vm rt-credit" \
    "list -c rt-vm"
  expect_err "row credit-nocap did not take: rt-vm is in cpupool rt-rtds, expected rt-credit"
}

make_pool_file() {
  local f=$WORK/$1.cfg
  printf 'name = "%s"\nsched = "%s"\ncpus = [%s]\n' "$1" "$2" "$3" >"$f"
  echo "$f"
}

test_existing_pool_with_wrong_scheduler() {
  fresh_host
  xl cpupool-create "$(make_pool_file rt-credit credit2 '"12", "13"')" >/dev/null
  apply credit-nocap
  expect_status 1
  expect_err "row credit-nocap: cpupool rt-credit exists with scheduler credit2, expected credit"
}

# The first row on a host whose rt pCPUs are still in Pool-0: cpupool-create fails and the
# message says how to free them.
test_pool_cpus_not_free() {
  fresh_host
  xl cpupool-migrate rt-vm Pool-0
  xl cpupool-destroy rt-rtds
  echo "credit2 0,1,2,3,4,5,6,7,8,9,10,11" >"$FAKE_XL_STATE/pools/Pool-0"
  forget_calls
  apply rtds-100000
  expect_status 1
  expect_calls "list -c rt-vm" "cpupool-list rt-rtds" "cpupool-create $XC/pools/rt-rtds.cfg"
  expect_err "cpu 10 illegal or not free"
  expect_err "xl cpupool-cpu-remove Pool-0"
}

test_restore_rtds_defaults() {
  fresh_host
  apply rtds-75000
  forget_calls
  apply --restore
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-rtds" \
    "sched-rtds -d rt-vm -v all -p 10000 -b 4000 -e 1" \
    "sched-rtds -d rt-vm -v all"
  expect_domain rt-vm "2 rt-rtds 2 10000 4000 1 256 0"
  expect_out "rt-vm restored to rtds defaults in cpupool rt-rtds"
}

test_restore_credit_defaults() {
  fresh_host
  apply credit-cap153
  forget_calls
  apply --restore
  expect_status 0
  expect_calls \
    "list -c rt-vm" \
    "cpupool-list rt-credit" \
    "sched-credit -d rt-vm -w 256 -c 0" \
    "sched-credit -d rt-vm"
  expect_domain rt-vm "2 rt-credit 2 10000 4000 1 256 0"
}

test_restore_that_does_not_take() {
  fresh_host
  apply credit-cap153
  export FAKE_XL_NOT_TAKE=sched-credit
  apply --restore
  expect_status 1
  expect_err "row default-credit did not take: rt-vm has cap 153, expected 0"
}

# A default-* row applied by name keeps the domain's pool, and refuses a pool of another
# scheduler rather than moving the domain.
test_default_row_in_wrong_pool() {
  fresh_host
  apply default-credit
  expect_status 1
  expect_err "row default-credit: cpupool rt-rtds runs rtds, expected credit"
  expect_calls "list -c rt-vm" "cpupool-list rt-rtds"
}

# A setting xl refuses ends the row in one line: the row, the rows file, the call and xl's own
# message, not xl's several lines after a generic failure.
test_refused_setting_is_one_line() {
  fresh_host
  FAKE_XL_REFUSE=sched-credit apply credit-cap153
  expect_status 1
  [ "$(grep -c 'refused\|libxl' <<<"$ERR")" = 1 ] && [[ $(tail -1 <<<"$ERR") == "apply-row: row credit-cap153"* ]] \
    || fail "expected xl's refusal once, in the last line"
  expect_err "apply-row: row credit-cap153 ($ROWS_FILE): xl sched-credit -d rt-vm -w 256 -c 153 refused: libxl: error: libxl_sched.c:123:sched_credit_domain_set: Domain 2:setting domain sched credit: Invalid argument"
}

test_other_domain() {
  fresh_host
  apply -d nosuch rtds-80000
  expect_status 1
  expect_err "xl list -c nosuch failed"
}

test_unknown_row() {
  fresh_host
  apply rtds-12345
  expect_status 2
  expect_err "unknown row 'rtds-12345'"
  expect_calls ""
}

test_list() {
  apply --list
  expect_status 0
  expect_out "rtds-76750       rtds     rt-rtds     period 100000 us, budget 76750 us, extratime 0   Table 4      49.32"
  expect_out "credit-cap153    credit   rt-credit   weight 256, cap 153"
  [ "$(grep -c . <<<"$OUT")" = 13 ] || fail "expected a header and 12 rows"
}

# Mistakes in a rows file are caught, with file and line, before anything is applied.
test_bad_rows_files() {
  local header="row	sched	pool	period_us	budget_us	extratime	weight	cap	source	study_max_ms"
  fresh_host
  printf '%s\n' "$header" "r1	rtds	rt-rtds	100000	120000	0	-	-	x	-" >"$WORK/rows.tsv"
  apply --rows "$WORK/rows.tsv" r1
  expect_status 1
  expect_err "$WORK/rows.tsv:2: row r1: budget_us 120000 exceeds period_us 100000"
  printf '%s\n' "$header" "r1	rtds	rt-rtds	100000	80000	-	-	-	x	-" >"$WORK/rows.tsv"
  apply --rows "$WORK/rows.tsv" --list
  expect_status 1
  expect_err "$WORK/rows.tsv:2: row r1: extratime '-': expected 0 or 1"
  printf '%s\n' "# comment" "$header" "r1	credit	rt-credit	-	-	-	0	0	x	-" >"$WORK/rows.tsv"
  apply --rows "$WORK/rows.tsv" --list
  expect_status 1
  expect_err "$WORK/rows.tsv:3: row r1: weight '0': expected 1..65535"
  printf '%s\n' "row sched pool" >"$WORK/rows.tsv"
  apply --rows "$WORK/rows.tsv" --list
  expect_status 1
  expect_err "$WORK/rows.tsv:1: expected the header line"
  expect_calls ""
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
printf 'apply-row tests: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
