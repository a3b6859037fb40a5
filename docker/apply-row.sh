#!/usr/bin/env bash
# Applies one of the study's scheduler rows to the TaskManager containers of the running Docker
# Compose stack: sets the CPU settings of the row's override file (rows/ROW.yaml beside this
# script) with docker update, reads them back with docker inspect and fails, naming the row and the
# container, if they did not take. The override files are the single source of the numbers
# (./its budget --row ROW --format compose renders them); this script only applies one. It is what
# `./its experiment --row-command docker/apply-row.sh` calls: ROW once the job is live, --restore
# after the run; what it prints goes into the run's applied.json.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=$HERE/rows
SERVICE=taskmanager
# CFS's default weight: what a container has when nothing limits it.
DEFAULT_SHARES=1024
INSPECT_FORMAT='{{.HostConfig.CpuPeriod}} {{.HostConfig.CpuQuota}} {{.HostConfig.CpuShares}}'

usage() {
  cat <<'EOF'
usage: docker/apply-row.sh [--rows DIR] ROW
       docker/apply-row.sh --restore
       docker/apply-row.sh [--rows DIR] --list

  ROW        a study row with an override file DIR/ROW.yaml (--list shows them): sets its
             cpu_period/cpu_quota (or, for a row without a CPU limit, no quota and cpu_shares)
             on every running taskmanager container with docker update, and checks them by
             reading them back with docker inspect
  --restore  no CPU limit again: cpu quota -1 (Docker's "unlimited") and cpu shares 1024,
             read back the same way
  --list     the rows and their settings
  --rows DIR another folder of override files (default: docker/rows beside this script)

The containers: `docker compose ps -q taskmanager` for the stack of COMPOSE_FILE (default:
docker/compose.yaml beside this script) and COMPOSE_PROJECT_NAME when set, or the names or
IDs in ITS_TASKMANAGER_CONTAINERS (separated by spaces).
EOF
}

die() { printf 'apply-row: %s\n' "$*" >&2; exit 1; }
usage_error() { printf 'apply-row: %s\n' "$*" >&2; usage >&2; exit 2; }

# --- override files ----------------------------------------------------------------------

row_names() {
  local f names=()
  for f in "$ROWS"/*.yaml; do
    [ -f "$f" ] || continue
    f=${f##*/}
    names+=("${f%.yaml}")
  done
  printf '%s' "${names[*]:-none}"
}

# Reads override file $1 into PERIOD, QUOTA and SHARES. Only the comment header and
# services.taskmanager's cpu_period, cpu_quota and cpu_shares are accepted: a file that says
# anything else would not mean what this script applies.
read_override() {
  local file=$1 line n=0 state=services kv key value
  PERIOD='' QUOTA='' SHARES=''
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    case $line in
      '' | '#'*) continue ;;
    esac
    case $state:$line in
      services:'services:') state=service; continue ;;
      service:"  $SERVICE:") state=keys; continue ;;
      services:* | service:*)
        die "$file:$n: expected 'services:' and then '  $SERVICE:' before the settings, got: $line" ;;
    esac
    kv=$(sed -nE 's/^    (cpu_period|cpu_quota|cpu_shares): ([1-9][0-9]*)$/\1 \2/p' <<<"$line")
    [ -n "$kv" ] || die "$file:$n: expected only $SERVICE's cpu_period, cpu_quota or cpu_shares (a whole number > 0), got: $line"
    read -r key value <<<"$kv"
    case $key in
      cpu_period) [ -z "$PERIOD" ] || die "$file:$n: cpu_period given twice"; PERIOD=$value ;;
      cpu_quota) [ -z "$QUOTA" ] || die "$file:$n: cpu_quota given twice"; QUOTA=$value ;;
      cpu_shares) [ -z "$SHARES" ] || die "$file:$n: cpu_shares given twice"; SHARES=$value ;;
    esac
  done <"$file"
  if [ -n "$PERIOD$QUOTA" ]; then
    [ -n "$PERIOD" ] && [ -n "$QUOTA" ] && [ -z "$SHARES" ] \
      || die "$file: expected cpu_period with cpu_quota (a CPU limit), or cpu_shares alone (none)"
  else
    [ -n "$SHARES" ] || die "$file: sets no cpu_period/cpu_quota or cpu_shares for $SERVICE"
  fi
}

describe() {
  if [ -n "$QUOTA" ]; then
    printf 'cpu_period %s, cpu_quota %s' "$PERIOD" "$QUOTA"
  else
    printf 'cpu_shares %s, no CPU limit' "$SHARES"
  fi
}

list_rows() {
  local f
  printf '%-16s %s\n' row settings
  for f in "$ROWS"/*.yaml; do
    [ -f "$f" ] || continue
    read_override "$f"
    f=${f##*/}
    printf '%-16s %s\n' "${f%.yaml}" "$(describe)"
  done
}

# --- docker ------------------------------------------------------------------------------

CONTEXT=
CONTAINERS=()

find_containers() {
  local out args=(compose)
  if [ -n "${ITS_TASKMANAGER_CONTAINERS:-}" ]; then
    read -r -a CONTAINERS <<<"$ITS_TASKMANAGER_CONTAINERS"
    return
  fi
  # docker compose reads COMPOSE_FILE and COMPOSE_PROJECT_NAME itself; without COMPOSE_FILE it
  # is the stack's own file, wherever this runs from.
  [ -n "${COMPOSE_FILE:-}" ] || args+=(-f "$HERE/compose.yaml")
  out=$(docker "${args[@]}" ps -q "$SERVICE") || die "$CONTEXT: docker ${args[*]} ps -q $SERVICE failed"
  read -r -d '' -a CONTAINERS <<<"$out" || true
  [ ${#CONTAINERS[@]} -gt 0 ] \
    || die "$CONTEXT: no running $SERVICE container (docker ${args[*]} ps -q $SERVICE shows none): start the stack, e.g. docker compose -f $HERE/compose.yaml up -d, or name the containers in ITS_TASKMANAGER_CONTAINERS"
}

# Changes go through here, echoed, so a run's log shows exactly what was applied.
docker_change() {
  printf '+ docker %s\n' "$*" >&2
  docker "$@" >/dev/null || die "$CONTEXT: docker $* failed"
}

# Reads back every container's settings and checks them with the test $1, which gets the
# container's period, quota and shares; leaves them in READ_BACK, a line each.
READ_BACK=
read_back() {
  local check=$1 want=$2 c got period quota shares
  READ_BACK=
  for c in "${CONTAINERS[@]}"; do
    got=$(docker inspect --format "$INSPECT_FORMAT" "$c") || die "$CONTEXT: docker inspect $c failed"
    read -r period quota shares <<<"$got"
    "$check" "${period:-}" "${quota:-}" "${shares:-}" \
      || die "$CONTEXT did not take on container $c: cpu period ${period:-?}, quota ${quota:-?}, shares ${shares:-?}; expected $want (docker inspect $c)"
    READ_BACK+=$(printf '  %s: cpu period %s, quota %s, shares %s' "$c" "$period" "$quota" "$shares")$'\n'
  done
}

limit_took() { [ "$1" = "$PERIOD" ] && [ "$2" = "$QUOTA" ]; }
# A container that never had a quota shows 0, one set back to unlimited -1: both mean none.
no_limit_took() { { [ "$2" = -1 ] || [ "$2" = 0 ]; } && [ "$3" = "$SHARES" ]; }

set_no_limit() {
  docker_change update --cpu-quota -1 --cpu-shares "$SHARES" "${CONTAINERS[@]}"
}

apply_row() {
  local row=$1 file
  # Row names are file names here: nothing that could point outside the folder.
  [[ $row =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && file=$ROWS/$row.yaml && [ -f "$file" ] \
    || usage_error "unknown row '$row' (rows in $ROWS: $(row_names))"
  read_override "$file"
  CONTEXT="row $row"
  find_containers
  if [ -n "$QUOTA" ]; then
    docker_change update --cpu-period "$PERIOD" --cpu-quota "$QUOTA" "${CONTAINERS[@]}"
    read_back limit_took "cpu period $PERIOD, quota $QUOTA"
  else
    set_no_limit
    read_back no_limit_took "no quota (-1), shares $SHARES"
  fi
  printf 'apply-row: %s applied to %d %s container(s): %s (%s); read back:\n%s' "$row" "${#CONTAINERS[@]}" \
    "$SERVICE" "$(describe)" "$file" "$READ_BACK"
}

restore() {
  CONTEXT=restore
  PERIOD='' QUOTA='' SHARES=$DEFAULT_SHARES
  find_containers
  set_no_limit
  read_back no_limit_took "no quota (-1), shares $SHARES"
  printf 'apply-row: %d %s container(s) restored to no CPU limit (cpu quota -1, cpu shares %s); read back:\n%s' \
    "${#CONTAINERS[@]}" "$SERVICE" "$SHARES" "$READ_BACK"
}

action='' row=''
set_action() {
  [ -z "$action" ] || usage_error "one of ROW, --restore or --list at a time"
  action=$1
}
while [ $# -gt 0 ]; do
  case $1 in
    --rows) [ $# -ge 2 ] || usage_error "--rows needs a folder"; ROWS=$2; shift ;;
    --list) set_action list ;;
    --restore) set_action restore ;;
    -h | --help) usage; exit 0 ;;
    -*) usage_error "unknown option $1" ;;
    *) set_action apply; row=$1 ;;
  esac
  shift
done
[ -n "$action" ] || usage_error "name a row, or --list, or --restore"
[ -d "$ROWS" ] || die "$ROWS: no such folder of override files"

case $action in
  list) list_rows; exit 0 ;;
esac
command -v docker >/dev/null || die "docker not found: run this where the Compose stack's docker is"
case $action in
  apply) apply_row "$row" ;;
  restore) restore ;;
esac
