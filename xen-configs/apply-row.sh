#!/usr/bin/env bash
# Applies one of the study's scheduler configurations (a row of study-rows.tsv) to the rt-vm
# on a Xen 4.10+ host: moves the domain to the row's cpupool if needed, sets the scheduler
# parameters with xl, reads them back and fails, naming the row, if they did not take.
# Run as root in dom0. The rows are data; this script only knows how to apply a row.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROWS=$HERE/study-rows.tsv
POOLS=$HERE/pools
# shellcheck source=xl-words.sh
. "$HERE/xl-words.sh"
DOMAIN=rt-vm
COLUMNS_WANTED="row sched pool period_us budget_us extratime weight cap source study_max_ms"

usage() {
  cat <<'EOF'
usage: xen-configs/apply-row.sh [-d DOMAIN] [--rows FILE] ROW
       xen-configs/apply-row.sh [-d DOMAIN] [--rows FILE] --restore
       xen-configs/apply-row.sh [--rows FILE] --list

  ROW        a row of study-rows.tsv (--list shows them): moves DOMAIN to the row's cpupool
             (creating it from pools/POOL.cfg if needed), sets its scheduler parameters and
             checks them by reading them back
  --restore  sets Xen's defaults for the scheduler of DOMAIN's current cpupool (the
             default-* rows), read back the same way; the domain stays in its pool
  --list     the rows
  -d DOMAIN  the domain to configure (default: rt-vm)
  --rows F   another rows file with the same columns
EOF
}

die() { printf 'apply-row: %s\n' "$*" >&2; exit 1; }
usage_error() { printf 'apply-row: %s\n' "$*" >&2; usage >&2; exit 2; }

# --- rows --------------------------------------------------------------------------------

declare -A SCHED POOL PERIOD BUDGET EXTRA WEIGHT CAP SOURCE STUDY_MAX
ROW_NAMES=()

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# Reads and checks every row, so that a mistake anywhere in the file shows before anything is
# applied.
load_rows() {
  [ -f "$ROWS" ] || die "$ROWS: no such rows file"
  local line n=0 header=0 name sched pool period budget extra weight cap source max rest
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    [[ -z $line || $line == \#* ]] && continue
    IFS=$'\t' read -r name sched pool period budget extra weight cap source max rest <<<"$line"
    local where="$ROWS:$n"
    if [ "$header" = 0 ]; then
      [ "$(tr '\t' ' ' <<<"$line")" = "$COLUMNS_WANTED" ] \
        || die "$where: expected the header line '$COLUMNS_WANTED' (tab-separated)"
      header=1
      continue
    fi
    [ -n "$max" ] && [ -z "$rest" ] || die "$where: row '$name': expected 10 tab-separated columns"
    [ -z "${SCHED[$name]+x}" ] || die "$where: row '$name' appears twice"
    case $sched in
      rtds)
        is_uint "$period" && [ "$period" -gt 0 ] || die "$where: row $name: period_us '$period': expected a whole number of microseconds"
        is_uint "$budget" && [ "$budget" -gt 0 ] || die "$where: row $name: budget_us '$budget': expected a whole number of microseconds"
        [ "$budget" -le "$period" ] || die "$where: row $name: budget_us $budget exceeds period_us $period"
        # xl refuses -p/-b without -e ("Incorrect number of period, budget and extratime"), so
        # every RTDS row says what extratime it means.
        [[ $extra == [01] ]] || die "$where: row $name: extratime '$extra': expected 0 or 1"
        [ "$weight" = - ] && [ "$cap" = - ] || die "$where: row $name: weight and cap: expected '-' for rtds"
        ;;
      credit|credit2)
        is_uint "$weight" && [ "$weight" -ge 1 ] && [ "$weight" -le 65535 ] || die "$where: row $name: weight '$weight': expected 1..65535"
        is_uint "$cap" || die "$where: row $name: cap '$cap': expected a percentage of one pCPU, 0 for none"
        [ "$period" = - ] && [ "$budget" = - ] && [ "$extra" = - ] || die "$where: row $name: period_us, budget_us and extratime: expected '-' for $sched"
        ;;
      *) die "$where: row $name: sched '$sched': expected rtds, credit or credit2" ;;
    esac
    [ -n "$pool" ] || die "$where: row $name: pool: expected a cpupool name or '-'"
    SCHED[$name]=$sched POOL[$name]=$pool PERIOD[$name]=$period BUDGET[$name]=$budget
    EXTRA[$name]=$extra WEIGHT[$name]=$weight CAP[$name]=$cap SOURCE[$name]=$source
    STUDY_MAX[$name]=$max
    ROW_NAMES+=("$name")
  done <"$ROWS"
  [ "$header" = 1 ] || die "$ROWS: no header line"
  [ ${#ROW_NAMES[@]} -gt 0 ] || die "$ROWS: no rows"
}

describe() {
  local r=$1
  case ${SCHED[$r]} in
    rtds) printf 'period %s us, budget %s us, extratime %s' "${PERIOD[$r]}" "${BUDGET[$r]}" "${EXTRA[$r]}" ;;
    *) printf 'weight %s, cap %s' "${WEIGHT[$r]}" "${CAP[$r]}" ;;
  esac
}

list_rows() {
  local r
  printf '%-16s %-8s %-11s %-48s %-12s %s\n' row sched pool parameters source 'study max (ms)'
  for r in "${ROW_NAMES[@]}"; do
    printf '%-16s %-8s %-11s %-48s %-12s %s\n' "$r" "${SCHED[$r]}" "${POOL[$r]}" "$(describe "$r")" \
      "${SOURCE[$r]}" "${STUDY_MAX[$r]}"
  done
}

# --- xl ----------------------------------------------------------------------------------

CONTEXT=
# Changes go through here, echoed, so a run's log shows exactly what was applied. A refusal
# ends the run in one line: the row, the rows file, the call and xl's own words.
xl_change() {
  printf '+ xl %s\n' "$*" >&2
  local out
  if ! out=$(xl "$@" 2>&1); then
    die "$CONTEXT ($ROWS): xl $* refused: $(xl_words "$out")"
  fi
  [ -z "$out" ] || printf '%s\n' "$out" >&2
}

# The cpupool DOMAIN is in: the last column of `xl list -c DOMAIN`.
domain_pool() {
  local out
  out=$(xl list -c "$DOMAIN") || die "$CONTEXT: xl list -c $DOMAIN failed: is $DOMAIN running? (xl create $HERE/domains/rt-vm.cfg)"
  out=$(awk 'NR == 2 { print $NF }' <<<"$out")
  [ -n "$out" ] || die "$CONTEXT: xl list -c $DOMAIN shows no cpupool"
  printf '%s\n' "$out"
}

# The scheduler of cpupool $1 (3rd column of `xl cpupool-list`); fails if there is no such pool.
pool_sched() {
  local out
  out=$(xl cpupool-list "$1" 2>/dev/null) || return 1
  awk -v pool="$1" 'NR > 1 && $1 == pool { print $3 }' <<<"$out"
}

# Prints, for each of DOMAIN's lines in `xl sched-*` output $1, the values of the columns
# named by the other arguments, found by the header's names (the columns differ across Xen
# versions); "?" where this xl has no such column.
fields() {
  local out=$1
  shift
  awk -v want="$*" -v dom="$DOMAIN" '
    BEGIN { n = split(want, w, " ") }
    $1 == "Name" { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == dom {
      line = ""
      for (k = 1; k <= n; k++) line = line (k > 1 ? " " : "") ((w[k] in c) ? $(c[w[k]]) : "?")
      print line
    }' <<<"$out"
}

has_column() { awk -v want="$2" '$1 == "Name" { for (i = 1; i <= NF; i++) if ($i == want) f = 1 } END { exit !f }' <<<"$1"; }

# --- applying ----------------------------------------------------------------------------

# Moves DOMAIN from cpupool $1 to $2 if they differ; checks that $2 runs scheduler $3.
move_to_pool() {
  local cur=$1 want=$2 sched=$3 have
  if [ "$cur" != "$want" ]; then
    if have=$(pool_sched "$want"); then
      [ "$have" = "$sched" ] || die "$CONTEXT: cpupool $want exists with scheduler $have, expected $sched (xl cpupool-destroy $want, or fix $POOLS/$want.cfg)"
      xl_change cpupool-migrate "$DOMAIN" "$want"
    else
      local file=$POOLS/$want.cfg
      [ -f "$file" ] || die "$CONTEXT: cpupool $want does not exist and there is no $file to create it from"
      if [ -f "$POOLS/$cur.cfg" ]; then
        # The rt-* pools share their pCPUs: free them by parking the domain in Pool-0 for a
        # moment and destroying the pool it was in.
        xl_change cpupool-migrate "$DOMAIN" Pool-0
        xl_change cpupool-destroy "$cur"
      fi
      printf '+ xl cpupool-create %s\n' "$file" >&2
      xl cpupool-create "$file" >&2 || die "$CONTEXT: xl cpupool-create $file failed: its cpus= must be free (take them out of Pool-0 once: xl cpupool-cpu-remove Pool-0 CPUS)"
      xl_change cpupool-migrate "$DOMAIN" "$want"
    fi
    cur=$(domain_pool)
    [ "$cur" = "$want" ] || die "$CONTEXT did not take: $DOMAIN is in cpupool $cur, expected $want (xl list -c $DOMAIN)"
  fi
  have=$(pool_sched "$want") || die "$CONTEXT: xl cpupool-list $want failed"
  [ "$have" = "$sched" ] || die "$CONTEXT: cpupool $want runs $have, expected $sched"
}

set_rtds() {
  local r=$1 out want_extra got bad
  xl_change sched-rtds -d "$DOMAIN" -v all -p "${PERIOD[$r]}" -b "${BUDGET[$r]}" -e "${EXTRA[$r]}"
  # Per vCPU: without -v, xl shows the scheduler's defaults, not what the domain has.
  out=$(xl sched-rtds -d "$DOMAIN" -v all) || die "$CONTEXT: xl sched-rtds -d $DOMAIN -v all failed"
  has_column "$out" Extratime || die "$CONTEXT: xl sched-rtds shows no Extratime column: Xen 4.10 or newer is needed"
  if [ "${EXTRA[$r]}" = 1 ]; then want_extra=yes; else want_extra=no; fi
  got=$(fields "$out" VCPU Period Budget Extratime)
  [ -n "$got" ] || die "$CONTEXT: xl sched-rtds -d $DOMAIN -v all shows no vCPUs"
  bad=$(awk -v p="${PERIOD[$r]}" -v b="${BUDGET[$r]}" -v e="$want_extra" \
    '!($2 == p && $3 == b && $4 == e) { printf "vCPU %s has period %s budget %s extratime %s; ", $1, $2, $3, $4 }' <<<"$got")
  [ -z "$bad" ] || die "$CONTEXT did not take: ${bad}expected period ${PERIOD[$r]} budget ${BUDGET[$r]} extratime $want_extra (xl sched-rtds -d $DOMAIN -v all)"
  VCPUS_SEEN=$(wc -l <<<"$got")
}

# Credit and Credit2 share the domain-level weight/cap interface.
set_credit() {
  local r=$1 cmd=sched-${SCHED[$1]} out weight cap
  local args=(-w "${WEIGHT[$r]}" -c "${CAP[$r]}")
  if [ "${SCHED[$r]}" = credit2 ]; then
    # Credit2 caps came later than Credit2 itself; the read-back's header says whether this
    # xl has them.
    out=$(xl "$cmd" -d "$DOMAIN") || die "$CONTEXT: xl $cmd -d $DOMAIN failed"
    if ! has_column "$out" Cap; then
      [ "${CAP[$r]}" = 0 ] || die "$CONTEXT: this Xen's credit2 has no cap (xl $cmd shows no Cap column), the row needs cap ${CAP[$r]}"
      args=(-w "${WEIGHT[$r]}")
    fi
  fi
  xl_change "$cmd" -d "$DOMAIN" "${args[@]}"
  out=$(xl "$cmd" -d "$DOMAIN") || die "$CONTEXT: xl $cmd -d $DOMAIN failed"
  read -r weight cap <<<"$(fields "$out" Weight Cap)"
  [ "${weight:-}" = "${WEIGHT[$r]}" ] || die "$CONTEXT did not take: $DOMAIN has weight ${weight:-none}, expected ${WEIGHT[$r]} (xl $cmd -d $DOMAIN)"
  # No Cap column: an older credit2, whose row was checked above to need none.
  [ "$cap" = "?" ] || [ "$cap" = "${CAP[$r]}" ] || die "$CONTEXT did not take: $DOMAIN has cap $cap, expected ${CAP[$r]} (xl $cmd -d $DOMAIN)"
}

set_params() {
  case ${SCHED[$1]} in
    rtds) set_rtds "$1" ;;
    *) set_credit "$1" ;;
  esac
}

apply_row() {
  local r=$1 cur pool
  [ -n "${SCHED[$r]+x}" ] || usage_error "unknown row '$r' (rows in $ROWS: ${ROW_NAMES[*]})"
  CONTEXT="row $r"
  cur=$(domain_pool)
  pool=${POOL[$r]}
  if [ "$pool" = - ]; then pool=$cur; fi
  move_to_pool "$cur" "$pool" "${SCHED[$r]}"
  VCPUS_SEEN=
  set_params "$r"
  printf 'apply-row: %s applied to %s: cpupool %s (%s), %s%s; read back\n' "$r" "$DOMAIN" "$pool" \
    "${SCHED[$r]}" "$(describe "$r")" "${VCPUS_SEEN:+ on $VCPUS_SEEN vCPUs}"
}

restore() {
  local pool sched r
  CONTEXT="restore"
  pool=$(domain_pool)
  sched=$(pool_sched "$pool") || die "restore: xl cpupool-list $pool failed"
  r=default-$sched
  [ -n "${SCHED[$r]+x}" ] || die "restore: $DOMAIN's cpupool $pool runs $sched, and $ROWS has no row $r"
  CONTEXT="row $r"
  VCPUS_SEEN=
  set_params "$r"
  printf 'apply-row: %s restored to %s defaults in cpupool %s: %s%s; read back\n' "$DOMAIN" "$sched" \
    "$pool" "$(describe "$r")" "${VCPUS_SEEN:+ on $VCPUS_SEEN vCPUs}"
}

action='' row=''
set_action() {
  [ -z "$action" ] || usage_error "one of ROW, --restore or --list at a time"
  action=$1
}
while [ $# -gt 0 ]; do
  case $1 in
    -d|--domain) [ $# -ge 2 ] || usage_error "$1 needs a domain name"; DOMAIN=$2; shift ;;
    --rows) [ $# -ge 2 ] || usage_error "--rows needs a file"; ROWS=$2; shift ;;
    --list) set_action list ;;
    --restore) set_action restore ;;
    -h|--help) usage; exit 0 ;;
    -*) usage_error "unknown option $1" ;;
    *) set_action apply; row=$1 ;;
  esac
  shift
done
[ -n "$action" ] || usage_error "name a row, or --list, or --restore"

load_rows
case $action in
  list) list_rows; exit 0 ;;
esac
command -v xl >/dev/null || die "xl not found: run this in dom0 of a Xen 4.10+ host, as root"
case $action in
  apply) apply_row "$row" ;;
  restore) restore ;;
esac
