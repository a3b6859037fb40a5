#!/usr/bin/env bash
# Checks xen-configs/ without a hypervisor: every bundled xl config and cpupool config through
# Xen's own parser (libxlutil, from libxen-dev) plus the study's expectations, the broken
# fixtures rejected for the reason they were written for, and apply-row.sh's tests against a
# fake xl. Exit 0 only if all of it passes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
XC=$(dirname "$HERE")
BUILD=$HERE/build
CHECKER=$BUILD/xencfg-check
PACKAGE=libxen-dev
HEADER=/usr/include/libxlutil.h

say() { printf 'check-configs: %s\n' "$*"; }
die() { printf 'check-configs: %s\n' "$*" >&2; exit 1; }

# The checker links Xen's own parser, so the check cannot run without it; CI must install it
# rather than skip.
install_xen_dev() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "$PACKAGE is missing ($HEADER) and there is no sudo to install it: run apt-get install $PACKAGE as root"
    # Without a terminal, a password prompt would hang CI: fail at once instead.
    if [ -t 0 ]; then sudo=(sudo); else sudo=(sudo -n); fi
  fi
  command -v apt-get >/dev/null || die "$PACKAGE is missing ($HEADER) and apt-get is not here: install Xen's development files (libxlutil.h, libxlutil.so) another way"
  say "installing $PACKAGE (Xen's libxlutil and its header) with apt-get ..."
  mkdir -p "$BUILD"
  local log=$BUILD/apt-get.log
  # apt's progress goes to a log, shown only when the install fails.
  if ! { "${sudo[@]}" apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$PACKAGE"; } \
       >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "apt-get could not install $PACKAGE (log: $log): install it and run this again"
  fi
  [ -f "$HEADER" ] || die "$PACKAGE installed but $HEADER is still missing"
}

[ -f "$HEADER" ] || install_xen_dev
command -v gcc >/dev/null || die "gcc not found: it compiles the checker against libxlutil"

mkdir -p "$BUILD"
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$CHECKER" "$HERE/xencfg-check.c" -lxlutil -lxenlight \
  || die "compiling $HERE/xencfg-check.c against $PACKAGE failed"
version=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null || echo unknown)
say "checker built against $PACKAGE $version"

# 1. The bundled configs, with what the study's set-up fixes (docs/study.md, section 1): the
# messaging VM has 8 vCPUs pinned one-to-one and 16 GB, the real-time VM 2 vCPUs and 8 GB.
checked=(
  "$XC/domains/msg-vm.cfg" "$XC/domains/rt-vm.cfg"
  "$XC/pools/rt-rtds.cfg" "$XC/pools/rt-credit.cfg" "$XC/pools/rt-credit2.cfg"
)
for f in "$XC"/domains/*.cfg "$XC"/pools/*.cfg; do
  [[ " ${checked[*]} " == *" $f "* ]] || die "$f is not checked: add it to $0 with its expectations"
done
"$CHECKER" \
  --domain "$XC/domains/msg-vm.cfg" --vcpus 8 --memory 16384 --pin-one-to-one \
  --domain "$XC/domains/rt-vm.cfg" --vcpus 2 --memory 8192 \
  --pool "$XC/pools/rt-rtds.cfg" --sched rtds \
  --pool "$XC/pools/rt-credit.cfg" --sched credit \
  --pool "$XC/pools/rt-credit2.cfg" --sched credit2 \
  || die "the bundled configs are not valid (above: file, key, what was expected)"
say "${#checked[@]} bundled configs parsed by Xen's parser and checked"

# 2. Broken fixtures: each says how to check it ("# check: ARGS", where FILE is the fixture and
# XEN_CONFIGS/ the folder above) and what the rejection must mention ("# expect: TEXT"), so
# each fails for its own reason.
fixtures=0
for f in "$HERE"/fixtures/*.cfg; do
  args=$(sed -n 's/^# check: //p' "$f" | head -1)
  expect=$(sed -n 's/^# expect: //p' "$f" | head -1)
  [ -n "$args" ] && [ -n "$expect" ] || die "$f: expected a '# check: ' and an '# expect: ' line"
  read -r -a argv <<<"$args"
  for i in "${!argv[@]}"; do
    case ${argv[$i]} in
      FILE) argv[i]=$f ;;
      XEN_CONFIGS/*) argv[i]=$XC/${argv[i]#XEN_CONFIGS/} ;;
    esac
  done
  set +e
  output=$("$CHECKER" "${argv[@]}" 2>&1)
  status=$?
  set -e
  [ "$status" = 1 ] || die "$f: expected the checker to reject it (exit 1), got exit $status: $output"
  grep -qF -- "$expect" <<<"$output" || die "$f: rejected, but not for '$expect': $output"
  fixtures=$((fixtures + 1))
done
[ "$fixtures" -gt 0 ] || die "no fixtures in $HERE/fixtures: the checker's failure path goes unchecked"
say "$fixtures broken fixtures rejected, each for its expected reason"

# 3. apply-row.sh against a fake xl.
bash "$XC/test/test-apply-row.sh" || die "apply-row.sh tests failed (above)"

say "all passed: ${#checked[@]} configs valid, $fixtures broken fixtures rejected, apply-row.sh tests green"
