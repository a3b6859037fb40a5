#!/usr/bin/env bash
# `./its xen experiment FILE... [OPTION...]`: experiment files run on the lab, laid out as the
# study's machines were: the Flink cluster (a JobManager and a TaskManager, each a process of
# its own) in the rt-vm, where the row's scheduler settings act on it; the Kafka broker, the
# producers, the probe and the experiment runner in dom0, so that the producers' and the
# probe's timestamps come from one clock. Each row is set with xen-configs/apply-row.sh in dom0
# by the real xl (the runner's --row-command), read back, and restored after the run. The
# results are copied back to this host; the cluster and the broker, started once for all the
# files, are stopped whatever happens.
# Under TCG the cluster's first job runs on a TaskManager whose JIT has compiled nothing yet: it
# answered ~100 times slower than the jobs after it in the lab (docs/xen-lab.md). So, unless
# --no-warm-up-run, one unmeasured run of the first row comes first, and every measured row runs
# on a TaskManager and a broker that have run the job once.
# Needs a lab started with `./its xen up --stage` and its rt-vm.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONFIGS=$(dirname "$HERE")
ROOT=$(dirname "$CONFIGS")
LAB=$HERE/lab.sh
STAGE=/opt/its-rt/stage
DOM0_ADDRESS=10.0.0.1
RT_ADDRESS=10.0.0.2
KAFKA=$DOM0_ADDRESS:9092
WORK=/var/tmp/its-rt
# The launcher's class-data archives are off in the lab: with them on, the cluster's keeper in
# the rt-vm failed on its first class ("ClassFormatError: Incompatible magic value 0 in class
# file picocli/CommandLine"), with them off it starts (not understood yet).
NO_CDS=ITS_CDS=off
# The rt-vm has 8 GiB; Flink's defaults for one TaskManager are far below it, and the JVMs run
# emulated, so the memory is sized for start-up time rather than for the job's state.
TASKMANAGER_MEMORY=2048m

usage() {
  cat <<'EOF'
usage: ./its xen experiment FILE[:ROW,...]... [--out DIR] [--no-warm-up-run]
                           [--cluster-java-option OPTION]... [OPTION...]

  Runs the experiment files (e.g. experiments/study-rtds.yaml), in turn, in the lab started with
  `./its xen up --stage`: the Flink cluster in the rt-vm, Kafka, producers, probe and the
  runner in dom0, each row applied with apply-row.sh and the real xl. OPTIONs go to
  `./its experiment` (--rows, --repetitions, --quick, --rate, --records, ...; not the
  stack's: --bootstrap-servers, --flink-rest and --row-command are the lab's).
  FILE:ROW,...     only these rows of FILE (its --rows), e.g.
                   experiments/study-rtds.yaml:rtds-100000,rtds-75000
  --no-warm-up-run measure from the cluster's first job (by default one run of the first row,
                   with the same options, goes first and is kept apart in DIR/warm-up-run)
  --cluster-java-option OPTION
                   a JVM option for every process of the Flink cluster in the rt-vm (through
                   JAVA_TOOL_OPTIONS), e.g. -XX:UseAVX=0 (xen-configs/lab/README.md, "Java in
                   the lab"); repeatable
  --out DIR   where the results are copied on this host, a folder per file (default:
              results/xen/experiment-TIME)
EOF
}

die() { printf 'its xen experiment: %s\n' "$*" >&2; exit 2; }
log() { printf '[xen experiment] %s\n' "$*" >&2; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac
rels=()
rows_of=()
while [ $# -gt 0 ] && [[ $1 != -* ]]; do
  file=$1 rows=
  if [[ $file == *:* ]]; then
    rows=${file#*:} file=${file%%:*}
    [[ $rows =~ ^[A-Za-z0-9._-]+(,[A-Za-z0-9._-]+)*$ ]] || die "$1: expected FILE:ROW,ROW,... (row labels as --print-plan lists them)"
  fi
  [ -f "$file" ] || die "no experiment file $file"
  rel=$(realpath --relative-to="$ROOT" "$file")
  [[ $rel != ../* ]] || die "$file is outside the repository: the lab runs the staged repository's files"
  rels+=("$rel")
  rows_of+=("$rows")
  shift
done
[ ${#rels[@]} -gt 0 ] || die "no experiment file given"
out=
warm_up_run=1
cluster_java_options=()
rows_given=0
args=()
# Under TCG the job's tasks take minutes to start and load the model before the first answer.
job_start_timeout=(--job-start-timeout 15m)
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift ;;
    --no-warm-up-run) warm_up_run=0 ;;
    --cluster-java-option)
      [[ ${2:-} == -* ]] || die "--cluster-java-option needs a JVM option, e.g. -XX:UseAVX=0"
      [[ $2 =~ ^[A-Za-z0-9:=+._/-]+$ ]] || die "--cluster-java-option $2: one JVM option without spaces or quotes"
      cluster_java_options+=("$2"); shift ;;
    --rows|--rows=*) rows_given=1; args+=("$1") ;;
    --job-start-timeout|--job-start-timeout=*) job_start_timeout=(); args+=("$1") ;;
    --bootstrap-servers|--flink-rest|--row-command|--job-bootstrap-servers|--cluster|--cluster-pid)
      die "$1 is the lab's own: the broker in dom0, the cluster in the rt-vm, apply-row.sh in dom0" ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ "$rows_given" = 1 ]; then
  for rows in "${rows_of[@]}"; do
    [ -z "$rows" ] || die "--rows and FILE:ROW,... together: give each file its rows as FILE:ROW,..."
  done
fi
# The warm-up run's row: the first file's first chosen row, else its first xen_row.
warm_up_row=
if [ "$warm_up_run" = 1 ]; then
  warm_up_row=${rows_of[0]%%,*}
  [ -n "$warm_up_row" ] || warm_up_row=$(grep -oE 'xen_row: *[A-Za-z0-9._-]+' "$ROOT/${rels[0]}" | head -1 | sed 's/.*: *//')
  [ -n "$warm_up_row" ] || die "${rels[0]}: no xen_row to warm up with; give FILE:ROW or --no-warm-up-run"
fi
"$LAB" status | grep '^lab running' >/dev/null || die "no lab is running (./its xen up --stage)"
"$LAB" ssh dom0 "mountpoint -q $STAGE" 2>/dev/null || die "the lab was started without --stage (./its xen down; ./its xen up --stage)"
"$LAB" ssh dom0 'xl list rt-vm' >/dev/null 2>&1 || die "the rt-vm is not running (./its xen create rt-vm)"
name=experiment-$(date +%Y%m%d-%H%M%S)
out=${out:-$ROOT/results/xen/$name}
mkdir -p "$out"
out=$(cd "$out" && pwd)

stop_all() {
  # The runner in dom0 outlives the ssh that started it: stopped first (it restores the row and
  # cancels its job on TERM), then the cluster and the broker.
  "$LAB" ssh dom0 "pkill -TERM -f '[o]rg.itsrt.commands.ExperimentCommand' && for i in \$(seq 60); do pgrep -f '[o]rg.itsrt.commands.ExperimentCommand' >/dev/null || exit 0; sleep 1; done; pkill -KILL -f '[o]rg.itsrt.commands.ExperimentCommand'" >/dev/null 2>&1 || true
  "$LAB" ssh rt-vm "$NO_CDS $STAGE/its cluster down --dir $WORK/cluster" >>"$out/cluster.log" 2>&1 || true
  "$LAB" ssh dom0 "pkill -f '[L]ocalKafkaCommand' || true" >/dev/null 2>&1 || true
  "$LAB" ssh dom0 "cd $WORK/results && tar -c $name" 2>/dev/null | tar -C "$out" --strip-components=1 -x 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 130' INT TERM

"$LAB" stage rt-vm
log "the Flink cluster in the rt-vm (REST at http://$RT_ADDRESS:8081; log: $out/cluster.log)"
start=$(date +%s)
cluster_env=
[ ${#cluster_java_options[@]} -eq 0 ] || cluster_env="JAVA_TOOL_OPTIONS='${cluster_java_options[*]}'"
[ -z "$cluster_env" ] || log "  the cluster's JVMs with $cluster_env"
"$LAB" ssh rt-vm "mkdir -p $WORK && cd $WORK && $NO_CDS $cluster_env $STAGE/its cluster up --dir $WORK/cluster --brokers 0 --rest-bind-address $RT_ADDRESS --taskmanager-memory $TASKMANAGER_MEMORY --start-timeout 15m" \
  >"$out/cluster.log" 2>&1 || { tail -5 "$out/cluster.log" >&2; die "the Flink cluster did not start in the rt-vm ($out/cluster.log)"; }
log "  up after $(($(date +%s) - start)) s"
log "the Kafka broker in dom0 at $KAFKA (log: $out/kafka.log)"
start=$(date +%s)
"$LAB" ssh dom0 "mkdir -p $WORK && cd $WORK && (setsid nohup env $NO_CDS $STAGE/its kafka --listen $KAFKA --start-timeout 10m >$WORK/kafka.log 2>&1 </dev/null &) && for i in \$(seq 600); do grep -q 'Kafka broker up' $WORK/kafka.log && exit 0; sleep 1; done; cat $WORK/kafka.log; exit 1" \
  >"$out/kafka.log" 2>&1 || { tail -5 "$out/kafka.log" >&2; die "the Kafka broker did not start in dom0 ($out/kafka.log)"; }
log "  up after $(($(date +%s) - start)) s"
# ./its experiment in dom0: FILE (relative to the repository), the folder under this run's
# results, then its own options; its output is logged to $out/FOLDER.log.
experiment_in_dom0() {
  local rel=$1 folder=$2
  shift 2
  log "./its experiment $rel $* in dom0 (results copied to $out/$folder)"
  set +e
  "$LAB" ssh dom0 "cd $WORK && $NO_CDS $STAGE/its experiment $STAGE/$rel --out $WORK/results/$name/$folder --bootstrap-servers $KAFKA --flink-rest http://$RT_ADDRESS:8081 --row-command /opt/its-rt/xen-configs/apply-row.sh $(printf '%q ' "${job_start_timeout[@]}" "$@")" \
    2>&1 | tee "$out/$folder.log" >&2
  local code=${PIPESTATUS[0]}
  set -e
  log "$folder: exit $code"
  return "$code"
}
status=0
if [ -n "$warm_up_row" ]; then
  log "warm-up run (not a result): row $warm_up_row of ${rels[0]}, so that no measured row runs the cluster's first job"
  warm_up_args=()
  skip=0
  for arg in "${args[@]}"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case $arg in
      --repetitions) skip=1 ;;
      --repetitions=*) ;;
      *) warm_up_args+=("$arg") ;;
    esac
  done
  # Its exit status is not the experiment's: a warm-up run is expected to miss the SLO.
  experiment_in_dom0 "${rels[0]}" warm-up-run "${warm_up_args[@]}" --rows "$warm_up_row" --repetitions 1 || true
fi
for i in "${!rels[@]}"; do
  rel=${rels[$i]}
  rows=()
  [ -z "${rows_of[$i]}" ] || rows=(--rows "${rows_of[$i]}")
  experiment_in_dom0 "$rel" "$(basename "$rel" .yaml)" "${args[@]}" "${rows[@]}" || status=$?
done
log "results: $out"
exit "$status"
