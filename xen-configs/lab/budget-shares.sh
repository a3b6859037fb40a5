#!/usr/bin/env bash
# `./its xen shares`: what each of the study's rows gives a CPU-bound domain on the real Xen
# schedulers of the lab, beside what the same row gives as a cgroup CPU quota on this host.
# Both sides run the same load, one busy loop per vCPU (the rt-vm's two), and read the CPU time
# it got over the same window:
#   lab   cpu-share.sh in dom0: apply-row.sh sets the row with xl, xentop reads the rt-vm's time
#   host  ./its budget apply --row ROW (cgroup v1 or v2, whichever this host mounts; a row
#         without a CPU limit runs unlimited), the loops' CPU time from /proc
# The host goes first, before the lab boots, so that QEMU's emulation does not share its CPUs.
# Rows are measured in turn, all rows once per repetition, so that a drift of the machine
# shows as spread and not as a difference between rows. Writes shares.tsv (every window) and
# the report of `./its xen report` (shares.md, shares.csv, shares.png) into the output folder.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONFIGS=$(dirname "$HERE")
ROOT=$(dirname "$CONFIGS")
LAB=$HERE/lab.sh
ROWS_FILE=$CONFIGS/study-rows.tsv
REPETITIONS=3
WINDOW_S=20
SETTLE_S=3
VCPUS=2
OUT=
HOST=1
LAB_TOO=1

usage() {
  cat <<'EOF'
usage: ./its xen shares [--repetitions N] [--window SECONDS] [--out DIR] [--no-host | --no-lab] [ROW...]

  Measures the CPU share each study row (default: every row of Tables 4-6 in
  xen-configs/study-rows.tsv) gives a CPU-bound rt-vm on the lab's real schedulers, and the
  share the same row gives as a cgroup quota on this host, then writes a table and a plot.
  Boots the lab (Xen and the rt-vm only) unless one runs, and stops what it booted.

  --repetitions N  windows per row and place, rows in turn (default: 3)
  --window S       each measured window, seconds (default: 20)
  --out DIR        where shares.tsv and the report go (default: results/xen/shares-TIME)
  --no-host        the lab only
  --no-lab         this host only (no QEMU needed)
EOF
}

die() { printf 'its xen shares: %s\n' "$*" >&2; exit 2; }
log() { printf '[xen shares] %s\n' "$*" >&2; }

rows=()
while [ $# -gt 0 ]; do
  case $1 in
    --repetitions) REPETITIONS=${2:?--repetitions needs a number}; shift ;;
    --window) WINDOW_S=${2:?--window needs seconds}; shift ;;
    --out) OUT=${2:?--out needs a folder}; shift ;;
    --no-host) HOST= ;;
    --no-lab) LAB_TOO= ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) rows+=("$1") ;;
  esac
  shift
done
[ -n "$HOST" ] || [ -n "$LAB_TOO" ] || die "--no-host and --no-lab leave nothing to measure"
[[ $REPETITIONS =~ ^[1-9][0-9]?$ ]] || die "--repetitions must be 1..99, got '$REPETITIONS'"
[[ $WINDOW_S =~ ^[1-9][0-9]{0,3}$ ]] || die "--window must be 1..9999 seconds, got '$WINDOW_S'"
# The study's rows: every row of the file but Xen's defaults, in the file's order.
all_rows=$(awk -F'\t' '!/^#/ && NF > 1 && $1 != "row" && $9 != "Xen default" { print $1 }' "$ROWS_FILE")
[ ${#rows[@]} -gt 0 ] || mapfile -t rows <<<"$all_rows"
for row in "${rows[@]}"; do
  grep -qx -- "$row" <<<"$all_rows" || die "no study row '$row' in $ROWS_FILE (rows: $(echo $all_rows))"
done
[ "$(id -u)" = 0 ] || die "needs root: the lab boots QEMU with its disks, and the host's quota is a cgroup (run as root)"
OUT=${OUT:-$ROOT/results/xen/shares-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TABLE=$OUT/shares.tsv
printf 'place\trepetition\trow\tsched\tparameters\tvcpus\texpected_cpus\tmeasured_cpus\twindow_s\n' >"$TABLE"

burn_pid=
apply_pid=
booted=
cleanup() {
  [ -z "$apply_pid" ] || kill "$apply_pid" 2>/dev/null || true
  # budget apply restores on its own exit (SIGTERM runs its shutdown hook); wait for it first,
  # so that the loops leave no cgroup behind them.
  [ -z "$apply_pid" ] || wait "$apply_pid" 2>/dev/null || true
  [ -z "$burn_pid" ] || { pkill -P "$burn_pid" 2>/dev/null; kill "$burn_pid" 2>/dev/null; } || true
  [ -z "$booted" ] || "$LAB" down >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The CPU time, in clock ticks, of the busy loops under $burn_pid.
loop_ticks() {
  local total=0 child fields
  for child in $(pgrep -P "$burn_pid"); do
    # utime and stime: fields 14 and 15, counted after the command name's closing parenthesis.
    fields=$(sed 's/^.*) //' "/proc/$child/stat" 2>/dev/null) || continue
    total=$((total + $(awk '{ print $12 + $13 }' <<<"$fields")))
  done
  echo "$total"
}

# One window of ROW as a cgroup quota on this host: a line of shares.tsv, also kept in $last_line.
# Runs in this shell, not a subshell, so that the exit trap knows the processes it started.
host_window() {
  local row=$1 repetition=$2 sched period budget extratime cap params expected backend
  read -r sched period budget extratime cap <<<"$(awk -F'\t' -v r="$row" '$1 == r { print $2, $4, $5, $6, $8 }' "$ROWS_FILE")"
  case $sched in
    rtds) params="period $period us, budget $budget us, extratime $extratime"
      expected=$(awk -v v=$VCPUS -v b="$budget" -v p="$period" 'BEGIN { printf "%.3f", v * b / p }') ;;
    *) params="cap $cap"
      expected=$(awk -v c="$cap" -v v=$VCPUS 'BEGIN { e = (c == 0) ? v : c / 100; printf "%.3f", e }') ;;
  esac
  backend=linux-cgroup
  if [ "$sched" != rtds ] && [ "$cap" = 0 ]; then backend=none; fi
  setsid sh -c 'i=0; while [ $i -lt '"$VCPUS"' ]; do sh -c "while :; do :; done" & i=$((i + 1)); done; wait' </dev/null >/dev/null 2>&1 &
  burn_pid=$!
  "$ROOT/its" budget apply --backend "$backend" --row "$row" --vcpus "$VCPUS" --pid "$burn_pid" \
    --for $((SETTLE_S + WINDOW_S + 5)) --format json >"$OUT/host-$row-$repetition.json" 2>"$OUT/host-$row-$repetition.log" &
  apply_pid=$!
  local waited=0
  until grep -q 'holding' "$OUT/host-$row-$repetition.log"; do
    kill -0 "$apply_pid" 2>/dev/null || { cat "$OUT/host-$row-$repetition.log" >&2; die "$row: its budget apply failed (above)"; }
    sleep 0.2
    waited=$((waited + 1))
    [ $waited -lt 600 ] || die "$row: its budget apply did not apply the row within 120 s"
  done
  sleep "$SETTLE_S"
  local t0 c0 t1 c1
  t0=$(date +%s%N); c0=$(loop_ticks)
  sleep "$WINDOW_S"
  t1=$(date +%s%N); c1=$(loop_ticks)
  wait "$apply_pid" || die "$row: its budget apply failed to restore ($OUT/host-$row-$repetition.log)"
  apply_pid=
  pkill -P "$burn_pid" 2>/dev/null || true
  kill "$burn_pid" 2>/dev/null || true
  wait "$burn_pid" 2>/dev/null || true
  burn_pid=
  local measured
  measured=$(awk -v c=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", c / hz / (ns / 1e9) }')
  last_line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "host-$(cgroup_version)" "$repetition" "$row" "$sched" \
    "$params" "$VCPUS" "$expected" "$measured" "$WINDOW_S")
  printf '%s\n' "$last_line" >>"$TABLE"
}

cgroup_version() {
  if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then echo cgroup-v2; else echo cgroup-v1; fi
}

total=$((REPETITIONS * ${#rows[@]}))
window_cost=$((SETTLE_S + WINDOW_S + 8))
if [ -n "$HOST" ]; then
  if "$LAB" status | grep '^lab running' >/dev/null; then
    log "a lab runs on this host: its emulation shares the CPUs with the host's windows (./its xen down first for a quiet host)"
  fi
  log "host: ${#rows[@]} rows x $REPETITIONS as $(cgroup_version) quotas on $(nproc) CPUs, ~$((total * window_cost / 60)) min"
  done_windows=0
  for repetition in $(seq "$REPETITIONS"); do
    for row in "${rows[@]}"; do
      host_window "$row" "$repetition"
      done_windows=$((done_windows + 1))
      log "host $done_windows/$total: $row gave $(cut -f8 <<<"$last_line") CPUs of $(cut -f7 <<<"$last_line") allowed"
    done
  done
fi

if [ -n "$LAB_TOO" ] && ! "$LAB" status | grep '^lab running' >/dev/null; then
  log "booting the lab: Xen and dom0, then the rt-vm (logs: $OUT/lab)"
  booted=1
  "$LAB" up --logs "$OUT/lab" --no-domains 2>&1 | sed -u 's/^/  /' >&2
  "$LAB" create rt-vm 2>&1 | sed -u 's/^/  /' >&2
fi
[ -z "$LAB_TOO" ] || log "lab: ${#rows[@]} rows x $REPETITIONS on the real schedulers, ~$((total * (window_cost + 15) / 60)) min"
for repetition in $( [ -z "$LAB_TOO" ] || seq "$REPETITIONS"); do
  # cpu-share.sh prints a row's line as soon as it is measured: progress as it goes.
  if ! "$LAB" ssh dom0 /opt/its-rt/xen-configs/lab/cpu-share.sh --window "$WINDOW_S" --settle "$SETTLE_S" "${rows[@]}" \
    2>>"$OUT/lab-cpu-share.log" | while IFS= read -r line; do
      printf 'xen-tcg\t%s\t%s\n' "$repetition" "$line" >>"$TABLE"
      log "lab repetition $repetition: $(cut -f1 <<<"$line") gave $(cut -f6 <<<"$line") CPUs of $(cut -f5 <<<"$line") allowed"
    done; then
    tail -5 "$OUT/lab-cpu-share.log" >&2
    die "cpu-share.sh failed in dom0 ($OUT/lab-cpu-share.log)"
  fi
done

"$ROOT/its" xen report --in "$TABLE" --out "$OUT"
log "table and plot: $OUT/shares.md, $OUT/shares.png"
