#!/usr/bin/env bash
# Start-up and warm-up of `./its demo --quick --warmup 0` with and without class-data sharing
# (AppCDS, docs/pipeline.md "Start-up"): runs the demo REPEAT times per variant, interleaved,
# and writes runs.csv (one row per run) and startup.md (per variant: median, min and max).
#
#   benchmarks/startup/startup-bench.sh [--repeat N] [--out DIR] [--jit FLAGS] [-- DEMO_OPTIONS]
#   benchmarks/startup/startup-bench.sh --report DIR    (the tables again from DIR's runs)
#
# Variants: `cds` (archives in a cache folder of the bench's own, made by one run before the
# measured ones, which is reported as `cds-making`) and `no-cds` (ITS_CDS=off); with --jit,
# also `cds-jit`: `cds` with JIT FLAGS in JAVA_TOOL_OPTIONS, which every JVM of the run reads
# (e.g. --jit -XX:CompileThresholdScaling=0.5: methods compiled after half the usual calls).
#
# Times are from the demo's own log lines, stamped as they arrive:
#   client    the launcher's start to the demo's first line (the demo's JVM up)
#   broker    "starting a local Kafka broker" to "Kafka up"
#   cluster   "starting Flink" to "Flink up" (JobManager and TaskManager processes ready)
#   job       "Flink up" to "job ... is live" (submitted, running, answered the handshake)
#   ready     the launcher's start to the probe's "ready" (first record may be sent)
#   exit      "results:" to the launcher's end (stopping everything; a making run writes archives)
#   cpu       CPU seconds (user + system) of the whole run, every JVM of it included: on a busy
#             machine steadier than the times above, since waiting for a core costs none
# and from the probe's windows.csv (latency from intended, 1-s windows):
#   settle_s  the end of the last window whose p95 exceeds twice the median window p95 of the
#             run's last 15 s (0 when none does): how long latency takes to reach steady state
#   p95_w0_ms  the first window's p95: the records sent while the job's code first runs
#   p95_first5_ms, p95_last15_ms  the median window p95 over the first 5 and last 15 windows
#   p99_ms    the run's p99 over all records (latency from intended, from summary.json)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
repeat=3
jit=""
report_only=""
out="$ROOT/results/startup/$(date -u +%Y%m%d-%H%M%S)"
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift ;;
    --out) out=$2; shift ;;
    --jit) jit=$2; shift ;;
    --report) report_only=1; out=$2; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "startup-bench: unknown option $1 (expected --repeat N, --out DIR, -- DEMO_OPTIONS)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "startup-bench: --repeat: expected a positive count, got $repeat" >&2; exit 2; }
demo_options=("$@")
cache="$out/cds-cache"

# The demo, its stderr and stdout stamped line by line (seconds since the launcher's start).
run_demo() {
  local name=$1 switch=$2 tool_options=${3:-} start
  local dir="$out/runs/$name"
  mkdir -p "$(dirname "$dir")"
  echo "startup-bench: $name" >&2
  start=$EPOCHREALTIME
  # A run that fails is reported (its row stays mostly empty) and the bench goes on.
  # bash's `time`: the CPU time of the launcher and everything it waited for, the JVMs included.
  local TIMEFORMAT='(cpu %U user %S sys)'
  { time env ITS_CDS="$switch" ITS_CDS_DIR="$cache" ${tool_options:+JAVA_TOOL_OPTIONS="$tool_options"} "$ROOT/its" demo --quick --warmup 0 \
      "${demo_options[@]}" --out "$dir" 2>&1 || echo "(failed: exit $?)"; } 2>&1 \
    | while IFS= read -r line; do
        awk -v now="$EPOCHREALTIME" -v start="$start" -v line="$line" 'BEGIN { printf "%.3f %s\n", now - start, line }'
      done > "$out/runs/$name.log"
  if grep -q '(failed: exit' "$out/runs/$name.log"; then echo "startup-bench: $name failed: see $out/runs/$name.log" >&2; fi
  awk -v now="$EPOCHREALTIME" -v start="$start" 'BEGIN { printf "%.3f (end)\n", now - start }' >> "$out/runs/$name.log"
}

# One CSV row from a run's log and probe folder.
row() {
  local variant=$1 name=$2 log="$out/runs/$2.log" windows="$out/runs/$2/probe/windows.csv"
  local times settle p99
  times=$(awk '
    /its-demo:/ && !client { client = $1 }
    /starting a local Kafka broker/ { b0 = $1 }  /Kafka up at/ { b1 = $1 }
    /starting Flink/ { c0 = $1 }  /Flink up:/ { c1 = $1 }
    /is live \(/ { j1 = $1 }  /its-probe: ready/ { r = $1 }
    /^[0-9.]+ results:/ { e0 = $1 }  /\(end\)$/ { e1 = $1 }
    /\(cpu [0-9.]+ user [0-9.]+ sys\)/ { cpu = $3 + $5 }
    END { printf "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s", client, b1 - b0, c1 - c0, j1 - c1, r, e1 - e0, cpu == "" ? "" : sprintf("%.1f", cpu) }' "$log")
  settle=$(awk -F, '
    $1 == "from_intended" { n++; p[n] = $5 }
    function median(from, to,   k, m, v, i, j, t) {
      m = 0; for (k = from; k <= to; k++) v[++m] = p[k]
      for (i = 2; i <= m; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
      return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    }
    END {
      if (n < 15) { print ",,,"; exit }
      steady = median(n - 14, n); settle = 0
      for (k = 1; k <= n; k++) if (p[k] > 2 * steady) settle = k
      printf "%d,%.2f,%.2f,%.2f", settle, p[1], median(1, 5), steady
    }' "$windows" 2>/dev/null || echo ",,,")
  p99=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latency"]["from_intended"]["all"]["p99_ms"])' \
        "$out/runs/$name/probe/summary.json" 2>/dev/null || echo "")
  echo "$variant,$name,$times,$settle,$p99"
}

header="variant,run,client_s,broker_s,cluster_s,job_s,ready_s,exit_s,cpu_s,settle_s,p95_w0_ms,p95_first5_ms,p95_last15_ms,p99_ms"
if [ -z "$report_only" ]; then
  mkdir -p "$out"
  rm -rf "$cache"
  [ -z "$jit" ] || echo "$jit" > "$out/jit-flags"
  run_demo cds-making on
  variants=(no-cds cds)
  [ -z "$jit" ] || variants+=(cds-jit)
  for i in $(seq 1 "$repeat"); do
    for variant in "${variants[@]}"; do
      switch=on; [ "$variant" = no-cds ] && switch=off
      tool_options=""; [ "$variant" = cds-jit ] && tool_options=$jit
      run_demo "$variant-$i" "$switch" "$tool_options"
    done
  done
fi
[ -d "$out/runs" ] || { echo "startup-bench: $out/runs: no runs there" >&2; exit 2; }
jit=$(cat "$out/jit-flags" 2>/dev/null || echo "$jit")
repeat=$(ls "$out/runs" | grep -c '^cds-[0-9]*\.log$' || true)
echo "$header" > "$out/runs.csv"
for log in $(ls "$out/runs"/*.log | sort -V); do
  name=$(basename "$log" .log)
  variant=$name; [ "$name" = cds-making ] || variant=${name%-*}
  row "$variant" "$name" >> "$out/runs.csv"
done

{
  echo "# Start-up with and without class-data sharing"
  echo
  echo "\`./its demo --quick --warmup 0 ${demo_options[*]}\`, $repeat run(s) per variant, interleaved${jit:+; cds-jit: JAVA_TOOL_OPTIONS=$jit};"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg). Columns: see benchmarks/startup/startup-bench.sh."
  echo
  echo "| variant | runs | client s | broker s | cluster s | job s | ready s | exit s | cpu s | settle s | p95 first window ms | p95 first 5 s ms | p95 last 15 s ms | p99 ms |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for variant in no-cds cds cds-jit cds-making; do
    awk -F, -v v="$variant" '
      $1 == v { n++; for (c = 3; c <= 14; c++) { x[c, n] = $c } }
      function cell(c,   i, j, t, m, v) {
        m = 0; for (i = 1; i <= n; i++) if (x[c, i] != "") v[++m] = x[c, i] + 0
        if (m == 0) return "n/a"
        for (i = 2; i <= m; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
        med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
        return m == 1 ? sprintf("%.1f", med) : sprintf("%.1f (%.1f-%.1f)", med, v[1], v[m])
      }
      END {
        if (n == 0) exit
        printf "| %s | %d |", v, n
        for (c = 3; c <= 14; c++) printf " %s |", cell(c)
        printf "\n"
      }' "$out/runs.csv"
  done
  echo
  echo "Each cell: the median over the runs (min-max). Runs: runs.csv; each run's log and folder: runs/."
} > "$out/startup.md"
cat "$out/startup.md"
echo "startup-bench: wrote $out/startup.md" >&2
