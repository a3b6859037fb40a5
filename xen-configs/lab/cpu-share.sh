#!/usr/bin/env bash
# Measures what a study row's budget gives a domain on the real scheduler, in dom0 of a Xen host
# (the lab's, or any other): applies the row with apply-row.sh, puts a CPU-bound load on every
# vCPU of the domain (its-lab-burn, one busy loop per vCPU), and reads the CPU time Xen accounts
# to the domain over a window (xentop), then restores the scheduler's defaults. Prints
# one tab-separated line per row:
#   row sched parameters vcpus expected_cpus measured_cpus window_s
# expected_cpus is what the row allows the domain, in CPUs: RTDS vcpus x budget/period
# (extratime 0; with extratime, all of them), Credit and Credit2 cap/100, or all its vCPUs
# without a cap. measured_cpus is the domain's CPU time over the window divided by the window.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONFIGS=$(dirname "$HERE")
ROWS=$CONFIGS/study-rows.tsv
DOMAIN=rt-vm
WINDOW_S=20
SETTLE_S=3

usage() {
  cat <<'EOF'
usage: xen-configs/lab/cpu-share.sh [-d DOMAIN] [--window SECONDS] [--settle SECONDS] ROW...

  ROW         rows of xen-configs/study-rows.tsv, measured in this order
  -d DOMAIN   the domain to load and measure (default: rt-vm); it must answer `ssh DOMAIN`
  --window S  the measured window (default: 20 s)
  --settle S  load before the window starts (default: 3 s)
EOF
}

die() { printf 'cpu-share: %s\n' "$*" >&2; exit 1; }

rows=()
while [ $# -gt 0 ]; do
  case $1 in
    -d) DOMAIN=${2:?}; shift ;;
    --window) WINDOW_S=${2:?}; shift ;;
    --settle) SETTLE_S=${2:?}; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) rows+=("$1") ;;
  esac
  shift
done
[ ${#rows[@]} -gt 0 ] || { usage >&2; die "no row given"; }

# The row's columns from the rows file (apply-row.sh checks the file; this only reads it).
row_fields() {
  awk -F'\t' -v row="$1" '$1 == row { print $2, $4, $5, $6, $8; found = 1 } END { exit !found }' "$ROWS" \
    || die "no row $1 in $ROWS (xen-configs/apply-row.sh --list)"
}

vcpus=$(xl list "$DOMAIN" | awk -v dom="$DOMAIN" '$1 == dom { print $4 }')
[ -n "$vcpus" ] || die "domain $DOMAIN is not running"
ssh "$DOMAIN" true || die "domain $DOMAIN does not answer ssh"

for row in "${rows[@]}"; do
  read -r sched period budget extratime cap <<<"$(row_fields "$row")"
  "$HERE/../apply-row.sh" -d "$DOMAIN" "$row" >&2 || die "$row: apply-row.sh failed"
  case $sched in
    rtds)
      params="period $period us, budget $budget us, extratime $extratime"
      if [ "$extratime" = 1 ]; then expected=$(printf "%d.000" "$vcpus"); else expected=$(awk -v v="$vcpus" -v b="$budget" -v p="$period" 'BEGIN { printf "%.3f", v * b / p }'); fi ;;
    *)
      params="cap $cap"
      if [ "$cap" = 0 ]; then expected=$(printf "%d.000" "$vcpus"); else expected=$(awk -v c="$cap" -v v="$vcpus" 'BEGIN { e = c / 100; if (e > v) e = v; printf "%.3f", e }'); fi ;;
  esac
  # The load outlives the window by far and is stopped after it: on a loaded host the calls
  # around the window take seconds, and a load that ended inside the window would be measured.
  ssh "$DOMAIN" its-lab-burn $((SETTLE_S + 4 * WINDOW_S + 120)) >&2
  sleep "$SETTLE_S"
  # xentop reads the domain's CPU time and the clock in one process at both ends of the window
  # (its second sample's CPU(%) is the window's): two xl calls around a sleep took seconds each
  # on a busy emulated machine and moved the measured share by a quarter of a CPU.
  measured=$(xentop -b -i 2 -d "$WINDOW_S" | awk -v dom="$DOMAIN" '$1 == dom { share = $4 } END { if (share == "") exit 1; printf "%.3f", share / 100 }') \
    || die "$row: xentop showed no domain $DOMAIN"
  ssh "$DOMAIN" 'pkill -f "while :; do :; done"' || true
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$sched" "$params" "$vcpus" "$expected" "$measured" "$WINDOW_S"
done
"$HERE/../apply-row.sh" -d "$DOMAIN" --restore >&2
