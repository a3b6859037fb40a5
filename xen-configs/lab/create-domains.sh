#!/usr/bin/env bash
# Creates the bundled domains and their cpupools with the real xl, in dom0 of a Xen host (the
# lab's, or any other): each domain config of xen-configs/domains/ as it is in the repository,
# its placeholders filled (kernel, ramdisk, disk, bridge) and nothing else changed, and the
# cpupool it names made from xen-configs/pools/ with its pCPUs taken out of Pool-0 first (the
# README's steps 1 and 2). Waits until each domain answers SSH on its address.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONFIGS=$(dirname "$HERE")
FILLED=/run/its-lab
ADDRESSES=/etc/its-lab/addresses
# shellcheck source=../xl-words.sh
. "$(dirname "$HERE")/xl-words.sh"

usage() {
  cat <<'EOF'
usage: xen-configs/lab/create-domains.sh --disk DOMAIN=DEVICE... [--bridge BRIDGE] [--kernel FILE]
                                         [--ramdisk FILE] [--type TYPE] [--wait SECONDS]

  --disk DOMAIN=DEVICE  the root disk of domain DOMAIN in dom0 (@DISK@); one per domain config,
                        which also says which configs to create (in this order)
  --bridge BRIDGE       @BRIDGE@ (default: xenbr0)
  --kernel, --ramdisk   @KERNEL@, @RAMDISK@ (default: dom0's own /boot/vmlinuz-*, initrd.img-*)
  --type TYPE           create the domains as TYPE (pv) instead of the configs' type, given to xl
                        as a setting after the file (xl create FILE 'type="pv"'); the file stays
                        as it is. For hosts without hardware virtualization (QEMU TCG)
  --wait SECONDS        how long each domain may take to answer SSH (default: 600)
  --configs DIR         the folder of domains/ and pools/ (default: the xen-configs/ this
                        script is in)
  --ready DOMAIN,...    wait for these domains only (default: all); the others are created and
                        left booting, which under emulation takes minutes for an 8-vCPU domain
EOF
}

die() { printf 'create-domains: %s\n' "$*" >&2; exit 1; }

DISKS=()
BRIDGE=xenbr0
KERNEL=
RAMDISK=
TYPE=
WAIT=600
READY=all
while [ $# -gt 0 ]; do
  case $1 in
    --disk) DISKS+=("${2:?--disk needs DOMAIN=DEVICE}"); shift ;;
    --bridge) BRIDGE=${2:?}; shift ;;
    --kernel) KERNEL=${2:?}; shift ;;
    --ramdisk) RAMDISK=${2:?}; shift ;;
    --type) TYPE=${2:?}; shift ;;
    --wait) WAIT=${2:?}; shift ;;
    --ready) READY=${2:?}; shift ;;
    --configs) CONFIGS=$(cd "${2:?}" && pwd); shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
  shift
done
[ ${#DISKS[@]} -gt 0 ] || { usage >&2; die "no --disk given"; }
[ -n "$KERNEL" ] || KERNEL=$(ls /boot/vmlinuz-* | sort -V | tail -1)
[ -n "$RAMDISK" ] || RAMDISK=$(ls /boot/initrd.img-* | sort -V | tail -1)

# A key's value in an xl config file, without its quotes ("" when absent).
config_value() {
  sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\"\{0,1\}\([^\"]*\)\"\{0,1\}[[:space:]]*\$/\1/p" "$1" | tail -1
}

# Takes the pool's pCPUs out of Pool-0 and creates the pool, unless it exists already.
ensure_pool() {
  local pool=$1 file=$CONFIGS/pools/$1.cfg out cpus
  [ "$pool" = Pool-0 ] && return
  xl cpupool-list "$pool" >/dev/null 2>&1 && return
  [ -f "$file" ] || die "no pool file $file for cpupool $pool"
  cpus=$(sed -n 's/^[[:space:]]*cpus[[:space:]]*=[[:space:]]*\[\(.*\)\].*/\1/p' "$file" | tr -d ' "')
  [ -n "$cpus" ] || die "$file: no cpus = [...] list"
  out=$(mktemp)
  echo "+ xl cpupool-cpu-remove Pool-0 $cpus"
  xl cpupool-cpu-remove Pool-0 "$cpus" >"$out" 2>&1 \
    || die "xl cpupool-cpu-remove Pool-0 $cpus (for $file) refused: $(xl_words "$(cat "$out")")"
  echo "+ xl cpupool-create $file"
  xl cpupool-create "$file" >"$out" 2>&1 || die "xl cpupool-create $file refused: $(xl_words "$(cat "$out")")"
  rm -f "$out"
}

create_domain() {
  local name=$1 device=$2 file=$CONFIGS/domains/$1.cfg filled=$FILLED/$1.cfg out
  [ -f "$file" ] || die "no domain config $file for --disk $name=$device"
  [ -b "$device" ] || [ -f "$device" ] || die "$name's disk $device does not exist in dom0"
  [ "$(config_value "$file" name)" = "$name" ] || die "$file: name is not \"$name\""
  ensure_pool "$(config_value "$file" pool)"
  mkdir -p "$FILLED"
  sed -e "s|@KERNEL@|$KERNEL|g" -e "s|@RAMDISK@|$RAMDISK|g" -e "s|@DISK@|$device|g" -e "s|@BRIDGE@|$BRIDGE|g" \
    "$file" >"$filled"
  ! grep -q '@[A-Z]*@' "$filled" || die "$file: placeholders left after filling: $(grep -o '@[A-Z]*@' "$filled" | sort -u | tr '\n' ' ')"
  # What changed: the placeholders only (the filled copy beside the file, for the log).
  { diff "$file" "$filled" || true; } | sed -n 's/^> \([^#]\)/  filled: \1/p'
  local extra=()
  [ -z "$TYPE" ] || extra=("type=\"$TYPE\"")
  echo "+ xl create $file${TYPE:+ 'type=\"$TYPE\"'}"
  out=$(mktemp)
  if ! xl create "$filled" "${extra[@]}" >"$out" 2>&1; then
    cat "$out" >>/var/log/xen/create-domains.log
    die "xl create $file refused: $(xl_words "$(cat "$out")")"
  fi
  rm -f "$out"
}

wait_for_ssh() {
  local name=$1 address start now
  address=$(awk -v name="$name" '$2 == name { print $1 }' "$ADDRESSES")
  [ -n "$address" ] || die "$ADDRESSES has no address for $name"
  start=$(date +%s)
  until ssh -o ConnectTimeout=5 "root@$address" true 2>/dev/null; do
    now=$(date +%s)
    xl list "$name" >/dev/null 2>&1 || die "domain $name is gone (crashed?): its console is /var/log/xen/console/guest-$name.log"
    [ $((now - start)) -lt "$WAIT" ] || die "domain $name did not answer SSH at $address within $WAIT s (console: /var/log/xen/console/guest-$name.log)"
    sleep 3
  done
  echo "$name answers at $address after $(($(date +%s) - start)) s"
}

# One at a time: under emulation a domain that boots beside another takes several times as
# long, and the first one is usable while the next boots.
for spec in "${DISKS[@]}"; do
  name=${spec%%=*}
  create_domain "$name" "${spec#*=}"
  if [ "$READY" = all ] || [[ ,$READY, == *",$name,"* ]]; then
    wait_for_ssh "$name"
  else
    echo "$name created, left booting (not in --ready $READY)"
  fi
done
xl cpupool-list
xl list -c
