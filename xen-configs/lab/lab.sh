#!/usr/bin/env bash
# The Xen lab: Xen 4.17 with RTDS, Credit and Credit2 booted in QEMU on this host, dom0 and the
# bundled domains (xen-configs/domains/) and cpupools (xen-configs/pools/) created in it with the
# real xl. `./its xen` runs this script; xen-configs/lab/README.md says what runs where.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONFIGS=$(dirname "$HERE")
ROOT=$(dirname "$CONFIGS")
STATE=${ITS_XEN_LAB_STATE:-/run/its-rt/xen-lab}
# dom0: 2 vCPUs pinned to pCPUs 0-1, as the README's pCPU layout leaves them to it.
DOM0_VCPUS=2
DOM0_MB=2048
# Xen's own heap, frame table and the domains' page tables.
XEN_MB=2048
BOOT_TIMEOUT_S=600
QEMU_NAME=its-rt-xen-lab
# QEMU warns once per CPU that TCG does not offer invtsc, which the lab forces on (start_qemu).
QEMU_EXPECTED_WARNING="TCG doesn't support requested feature: CPUID.80000007H:EDX.invtsc"

usage() {
  cat <<'EOF'
usage: ./its xen up [--accel auto|tcg|kvm] [--logs DIR] [--no-domains] [--ready DOMAIN,...]
                   [--domain-type pv|as-configured] [--stage]
       ./its xen create DOMAIN... [--no-wait]
       ./its xen status
       ./its xen down
       ./its xen ssh [dom0|DOMAIN] [COMMAND...]
       ./its xen build
       ./its xen shares [--repetitions N] [--window S] [--out DIR] [--no-host | --no-lab] [ROW...]
       ./its xen report --in shares.tsv --out DIR
       ./its xen stage DOMAIN
       ./its xen experiment FILE... [--out DIR] [OPTION...]

  up      boots the lab (building it first, once per Debian release, into ~/.cache/its-rt/xen-lab):
          Xen with RTDS, Credit and Credit2 under QEMU, dom0, then the cpupools and domains of
          xen-configs/ created with xl from the files as they are (placeholders filled). Prints
          how to reach it; leaves it running.
            --accel        tcg: QEMU's emulator (any host); kvm: hardware virtualization, only
                           where the kernel has kvm_intel or kvm_amd; auto (default): kvm if so
            --logs DIR     the serial console and the domains' consoles (default:
                           results/xen/lab-TIME)
            --no-domains   boot Xen and dom0 only
            --stage        build the pipeline's modules and give dom0 them on a read-only disk
                           at /opt/its-rt/stage (the pipeline in the lab: lab/README.md)
            --ready        the domains to wait for until they answer SSH (default: all); the
                           others are created and left booting
            --domain-type  pv (default under TCG): the domains are created as PV guests, given
                           to xl after the file; as-configured: the configs' own type (PVH),
                           which needs hardware virtualization (default under KVM)
  create  creates bundled domains in a running lab (after up --no-domains), as up does;
          --no-wait: leave them booting
  status  whether a lab runs, its domains and cpupools
  down    stops the lab: QEMU, its disk layers and state; keeps the logs
  ssh     a shell or COMMAND on dom0 (default) or a domain, as root
  build   builds (or finds) the cached lab without booting it
  shares  each study row's CPU share for a CPU-bound rt-vm on the real schedulers, beside the
          same row as a cgroup quota on this host: a table and a plot (--help for more)
  report  the table and plot of a shares.tsv that `shares` wrote
  stage   gives the pipeline staged by `up --stage` to a running domain (xl block-attach, read-only)
  experiment  experiment files run in a lab started with `up --stage`: the Flink cluster in the
          rt-vm, Kafka, producers, probe and runner in dom0, rows applied with the real xl
          (--help for more)
EOF
}

log() { printf '[xen-lab] %s\n' "$*" >&2; }
die() { printf 'its xen: %s\n' "$*" >&2; exit 2; }

# --- the host ------------------------------------------------------------------------------

# tool:Debian package, for everything the lab runs on the host.
HOST_TOOLS=(qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils debootstrap:debootstrap
  flex:flex bison:bison dpkg-source:dpkg-dev mkfs.ext4:e2fsprogs ssh:openssh-client
  ssh-keygen:openssh-client make:make gcc:gcc python3:python3 xz:xz-utils patch:patch)

# Refuses a machine that cannot run the lab before anything is built or started.
preflight() {
  [ "$(uname -m)" = x86_64 ] || die "the Xen lab runs on x86-64 hosts only (this is $(uname -m))"
  [ "$(id -u)" = 0 ] || die "the Xen lab needs root: it builds its root file system with debootstrap and boots QEMU with its disks (run as root)"
  local entry tool missing=() packages=()
  for entry in "${HOST_TOOLS[@]}"; do
    tool=${entry%%:*}
    command -v "$tool" >/dev/null 2>&1 && continue
    missing+=("$tool")
    packages+=("${entry#*:}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 \
      || die "${missing[*]} not found, and this host has no apt-get to install them: install QEMU 10+ (qemu-system-x86_64, qemu-img), debootstrap, flex, bison, dpkg-dev"
    log "installing Debian's ${packages[*]} (for ${missing[*]})"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >"/tmp/its-xen-apt.$$.log" 2>&1 \
      || die "apt-get install ${packages[*]} failed: $(tail -1 "/tmp/its-xen-apt.$$.log")"
    rm -f "/tmp/its-xen-apt.$$.log"
  fi
  require_qemu
}

# QEMU 7.2's TCG (Debian 12's) runs Java wrongly in the lab: JVMs in dom0 and in the rt-vm died
# in JIT-compiled code (SIGSEGV in C1 code, "Internal Error", "Incompatible magic value 0") and a
# deterministic check computed different results, under every scheduler. 7.2 rewrote the SSE/AVX
# translation that the JVM's compiled code and stubs run on. QEMU 10.0 runs the same lab without
# it; on Debian 12 it comes from bookworm-backports.
QEMU_MIN_MAJOR=10
BACKPORTS_LIST=/etc/apt/sources.list.d/its-rt-bookworm-backports.list
qemu_major() { qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p'; }
require_qemu() {
  local major
  major=$(qemu_major)
  [ -n "$major" ] || die "cannot tell the version of qemu-system-x86_64 ($(qemu-system-x86_64 --version | head -1))"
  [ "$major" -lt $QEMU_MIN_MAJOR ] || return 0
  local why="QEMU $major's TCG runs Java wrongly in the lab (JVMs crash in compiled code); the lab needs QEMU $QEMU_MIN_MAJOR or newer"
  if command -v apt-get >/dev/null 2>&1 && grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
    log "$why: installing qemu-system-x86 and qemu-utils from bookworm-backports ($BACKPORTS_LIST)"
    [ -f "$BACKPORTS_LIST" ] || echo "deb http://deb.debian.org/debian bookworm-backports main" >"$BACKPORTS_LIST"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      -t bookworm-backports qemu-system-x86 qemu-utils; } >"/tmp/its-xen-apt.$$.log" 2>&1 \
      || die "installing QEMU from bookworm-backports failed: $(tail -1 "/tmp/its-xen-apt.$$.log")"
    rm -f "/tmp/its-xen-apt.$$.log"
    major=$(qemu_major)
    [ "${major:-0}" -ge $QEMU_MIN_MAJOR ] || die "bookworm-backports gave QEMU ${major:-?}: $why"
    return 0
  fi
  die "$why (install it, e.g. Debian 13's qemu-system-x86, or bookworm-backports' on Debian 12)"
}

# --- what the bundled configs ask of the machine ---------------------------------------------

# The highest pCPU any domain or pool file names, plus one: the lab's CPU count.
config_pcpus() {
  local highest
  highest=$(sed -n 's/^[[:space:]]*cpus[[:space:]]*=[[:space:]]*\[\(.*\)\].*/\1/p' "$CONFIGS"/domains/*.cfg "$CONFIGS"/pools/*.cfg \
    | grep -o '[0-9]\+' | sort -n | tail -1)
  echo $(( ${highest:-$((DOM0_VCPUS - 1))} + 1 ))
}

# The sum of the domains' memory (MB).
config_memory_mb() {
  sed -n 's/^[[:space:]]*memory[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$CONFIGS"/domains/*.cfg | awk '{ s += $1 } END { print s + 0 }'
}

# The domain configs' names, fewest vCPUs first: the order they are created and booted in.
config_domains() {
  local f
  for f in "$CONFIGS"/domains/*.cfg; do
    printf '%s %s\n' "$(sed -n 's/^[[:space:]]*vcpus[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$f")" "$(basename "$f" .cfg)"
  done | sort -n | cut -d' ' -f2
}

# --- state of a running lab ------------------------------------------------------------------

qemu_pid() {
  local pid
  pid=$(cat "$STATE/qemu.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -q "$QEMU_NAME" "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

# QEMUs of a lab whose state folder is gone (removed by hand, or a host that lost /run).
orphan_pids() {
  pgrep -f "^qemu-system-x86_64 -name $QEMU_NAME" || true
}

SSH_OPTIONS=(-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes)

dom0_ssh() {
  ssh "${SSH_OPTIONS[@]}" -o ConnectTimeout=10 -i "$(cat "$STATE/build")/id_ed25519" -p "$(cat "$STATE/ssh.port")" root@127.0.0.1 "$@"
}

# --- up ------------------------------------------------------------------------------------

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_qemu() {
  local build=$1 accel=$2 logs=$3 pcpus mem cpu port drives=() name i=1 letters=bcdefghijklmnop
  pcpus=$(config_pcpus)
  mem=$((DOM0_MB + $(config_memory_mb) + XEN_MB))
  port=$(free_port)
  # The disks: dom0's root, then one per domain config (dom0 sees them as /dev/vdb, ...), each a
  # copy-on-write layer over the cached image, which is never written.
  qemu-img create -q -f qcow2 -F raw -b "$build/base.img" "$STATE/dom0.qcow2"
  drives+=(-drive "file=$STATE/dom0.qcow2,if=virtio,format=qcow2")
  : >"$STATE/disks"
  for name in $(config_domains); do
    qemu-img create -q -f qcow2 -F raw -b "$build/base.img" "$STATE/$name.qcow2"
    drives+=(-drive "file=$STATE/$name.qcow2,if=virtio,format=qcow2")
    echo "$name=/dev/vd${letters:$((i - 1)):1}" >>"$STATE/disks"
    i=$((i + 1))
  done
  # The staged pipeline (up --stage) last, read-only: dom0 and the domains it is given to share it.
  if [ -f "$STATE/stage.img" ]; then
    drives+=(-drive "file=$STATE/stage.img,if=virtio,format=raw,readonly=on")
    echo "/dev/vd${letters:$((i - 1)):1}" >"$STATE/stage.dev"
  fi
  if [ "$accel" = kvm ]; then
    cpu=host
  else
    # -smap: Xen's 64-bit PV dom0 dies on its first entry under TCG with SMAP on. invtsc: TCG's
    # TSC follows the host's invariant TSC, but TCG does not say so; without it Xen calibrates
    # each pCPU's clock against the HPET while QEMU's threads wait for the host's two cores,
    # the pCPUs' clocks drift apart by milliseconds and RTDS cannot account budgets
    # ("burn_budget, ATTENTION: now is behind last_start").
    cpu=max,-smap,+invtsc,x-force-features=on
  fi
  echo "$port" >"$STATE/ssh.port"
  log "booting Xen in QEMU ($accel): $pcpus pCPUs, $((mem / 1024)) GiB (dom0 $DOM0_MB MB + the domains' $(config_memory_mb) MB + Xen), console: $logs/console.log"
  # reserve=off: the guest's memory is taken from the host only as it is touched (Xen does not
  # scrub it at boot: bootscrub=0), so a lab sized for the configs fits a host with less free.
  local accelerator=kvm
  [ "$accel" = kvm ] || accelerator=tcg,thread=multi
  qemu-system-x86_64 -name "$QEMU_NAME,debug-threads=on" -machine pc,memory-backend=ram0 -accel "$accelerator" \
    -cpu "$cpu" -smp "$pcpus" -m "${mem}M" -object "memory-backend-ram,id=ram0,size=${mem}M,reserve=off" \
    -kernel "$build/xen" \
    -append "console=com1 com1=115200,8n1 loglvl=all guest_loglvl=all dom0_mem=${DOM0_MB}M,max:${DOM0_MB}M dom0_max_vcpus=$DOM0_VCPUS dom0_vcpus_pin bootscrub=0" \
    -initrd "$build/vmlinuz root=/dev/vda rw console=hvc0 earlyprintk=xen,$build/initrd.img" \
    "${drives[@]}" \
    -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:$port-:22" -device virtio-net-pci,netdev=net0 \
    -display none -serial "file:$logs/console.log" -monitor "unix:$STATE/monitor.sock,server,nowait" \
    -pidfile "$STATE/qemu.pid" -daemonize 2>"$STATE/qemu.stderr" \
    || die "QEMU did not start: $(grep -v "$QEMU_EXPECTED_WARNING" "$STATE/qemu.stderr" | head -3)"
  # The daemon keeps the file as its stderr; what it said at start is shown once.
  grep -v "$QEMU_EXPECTED_WARNING" "$STATE/qemu.stderr" >&2 || true
  favour_dom0_threads
}

# Under TCG each pCPU is a QEMU thread, and twelve of them share the host's cores: a domain
# whose eight vCPUs boot at once starves dom0, whose backends (disk, network hotplug) that very
# boot waits for - the msg-vm's frontends waited minutes. dom0's pCPU threads get a higher
# priority on the host; the guests' scheduling inside Xen is untouched.
favour_dom0_threads() {
  local pid task n=0
  pid=$(cat "$STATE/qemu.pid")
  for task in /proc/"$pid"/task/*; do
    if [[ $(cat "$task/comm" 2>/dev/null) =~ ^CPU\ ([0-9]+)/ ]] && [ "${BASH_REMATCH[1]}" -lt $DOM0_VCPUS ]; then
      renice -n -10 -p "${task##*/}" >/dev/null && n=$((n + 1))
    fi
  done
  [ "$n" = "$DOM0_VCPUS" ] || log "note: found $n of dom0's $DOM0_VCPUS pCPU threads to favour on the host"
}

wait_for_dom0() {
  local logs=$1 start now last=0 line
  start=$(date +%s)
  until dom0_ssh true 2>/dev/null; do
    now=$(date +%s)
    [ -n "$(qemu_pid)" ] || die "QEMU ended during boot: see $logs/console.log"
    [ $((now - start)) -lt $BOOT_TIMEOUT_S ] || die "dom0 did not answer SSH within $BOOT_TIMEOUT_S s: see $logs/console.log"
    if [ $((now - last)) -ge 15 ]; then
      line=$(tail -c 2000 "$logs/console.log" 2>/dev/null | tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g' | grep -v '^[[:space:]]*$' | tail -1 | cut -c1-100)
      log "booting: $((now - start)) s, console: ${line:-(nothing yet)}"
      last=$now
    fi
    sleep 3
  done
  log "dom0 answers after $(($(date +%s) - start)) s"
}

# The repository's xen-configs/ in dom0 at /opt/its-rt/xen-configs: the files as they are here.
copy_configs() {
  tar -C "$ROOT" --exclude=xen-configs/check/build -c xen-configs \
    | dom0_ssh 'rm -rf /opt/its-rt/xen-configs && mkdir -p /opt/its-rt && tar -C /opt/its-rt -x'
}

cmd_up() {
  local accel=auto logs="" domains=1 domain_type="" ready=all stage=0
  while [ $# -gt 0 ]; do
    case $1 in
      --stage) stage=1 ;;
      --accel) accel=${2:?--accel needs auto, tcg or kvm}; shift ;;
      --logs) logs=${2:?--logs needs a folder}; shift ;;
      --no-domains) domains=0 ;;
      --ready) ready=${2:?--ready needs domain names, separated by commas}; shift ;;
      --domain-type) domain_type=${2:?--domain-type needs pv or as-configured}; shift ;;
      -h|--help) usage; return 0 ;;
      *) die "up: unknown option $1 (./its xen --help)" ;;
    esac
    shift
  done
  case $accel in
    auto) if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then accel=kvm; else accel=tcg; fi ;;
    tcg) ;;
    kvm) [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ] \
           || die "--accel kvm: this host's /dev/kvm is not hardware KVM (no kvm_intel or kvm_amd module$( [ -d /sys/module/kvm_pvm ] && echo '; it is kvm-pvm, which cannot run Xen'))" ;;
    *) die "--accel: expected auto, tcg or kvm, got $accel" ;;
  esac
  case ${domain_type:-default} in
    default) [ "$accel" = kvm ] && domain_type="" || domain_type=pv ;;
    pv) ;;
    as-configured) domain_type="" ;;
    *) die "--domain-type: expected pv or as-configured, got $domain_type" ;;
  esac
  preflight
  if [ -n "$(qemu_pid)" ] || [ -n "$(orphan_pids)" ]; then
    die "a lab is already running (./its xen status; ./its xen down stops it)"
  fi
  local build
  build=$("$HERE/build-lab.sh")
  [ -n "$logs" ] || logs=$PWD/results/xen/lab-$(date +%Y%m%d-%H%M%S)
  mkdir -p "$logs"
  logs=$(cd "$logs" && pwd)
  rm -rf "$STATE"
  mkdir -p "$STATE"
  echo "$build" >"$STATE/build"
  echo "$logs" >"$STATE/logs"
  echo "$accel" >"$STATE/accel"
  echo "$domain_type" >"$STATE/domain-type"
  date -u +%FT%TZ >"$STATE/started"
  # From here on an interrupted up stops what it started.
  trap 'log "interrupted: stopping the lab"; stop_lab; exit 130' INT TERM HUP
  [ "$stage" = 0 ] || "$HERE/stage.sh" "$STATE/stage.img" || { stop_lab; die "staging the pipeline failed (above)"; }
  start_qemu "$build" "$accel" "$logs"
  wait_for_dom0 "$logs"
  copy_configs
  [ "$stage" = 0 ] || mount_stage
  if [ "$domains" = 1 ]; then
    create_domains "$domain_type" "$ready" $(config_domains) \
      || { stop_lab; die "creating the domains failed (above); the lab was stopped, its logs are in $logs"; }
  fi
  trap - INT TERM HUP
  cmd_status
}

# Creates the named domains from their bundled configs with create-domains.sh in dom0, each on
# its disk layer and as the lab's domain type; waits for those in READY (all, none or a list).
create_domains() {
  local domain_type=$1 ready=$2 name spec args=()
  shift 2
  for name in "$@"; do
    spec=$(grep "^$name=" "$STATE/disks") || die "no bundled domain config $name (xen-configs/domains/)"
    args+=(--disk "$spec")
  done
  [ -z "$domain_type" ] || args+=(--type "$domain_type")
  log "creating $* with xl in dom0${domain_type:+ (as $domain_type guests)}"
  dom0_ssh /opt/its-rt/xen-configs/lab/create-domains.sh "${args[@]}" --ready "$ready" 2>&1 | sed -u 's/^/  dom0: /' >&2
}

# The staged pipeline at /opt/its-rt/stage in dom0.
mount_stage() {
  dom0_ssh "mkdir -p /opt/its-rt/stage && mount -o ro,noload $(cat "$STATE/stage.dev") /opt/its-rt/stage" \
    || die "dom0 could not mount the staged pipeline ($(cat "$STATE/stage.dev"))"
  log "the pipeline is staged at /opt/its-rt/stage in dom0 (./its xen stage DOMAIN gives it to a domain)"
}

# The staged pipeline given to a running domain with xl block-attach, read-only, and mounted at
# the same path there: its config file stays as it is.
cmd_stage() {
  [ -n "$(qemu_pid || true)" ] || die "no lab is running (./its xen up --stage)"
  [ -f "$STATE/stage.dev" ] || die "the lab was started without --stage: no staged pipeline to give"
  local domain=${1:?stage: name a running domain, e.g. rt-vm}
  dom0_ssh "xl block-list $domain | grep -q '^51728 ' || xl block-attach $domain 'format=raw, vdev=xvdb, access=ro, target=$(cat "$STATE/stage.dev")'" \
    || die "xl block-attach of the staged pipeline to $domain failed (above)"
  dom0_ssh "ssh $domain 'mountpoint -q /opt/its-rt/stage || { for i in \$(seq 30); do [ -b /dev/xvdb ] && break; sleep 1; done; mkdir -p /opt/its-rt/stage && mount -o ro,noload /dev/xvdb /opt/its-rt/stage; }'" \
    || die "$domain could not mount the staged pipeline (/dev/xvdb)"
  log "the pipeline is staged at /opt/its-rt/stage in $domain"
}

cmd_create() {
  [ -n "$(qemu_pid || true)" ] || die "no lab is running (./its xen up --no-domains)"
  local ready=all names=()
  while [ $# -gt 0 ]; do
    case $1 in
      --no-wait) ready=none ;;
      -*) die "create: unknown option $1 (./its xen --help)" ;;
      *) names+=("$1") ;;
    esac
    shift
  done
  [ ${#names[@]} -gt 0 ] || die "create: name the bundled domains to create ($(config_domains | tr '\n' ' '))"
  create_domains "$(cat "$STATE/domain-type")" "$ready" "${names[@]}"
}

# --- status, down, ssh ---------------------------------------------------------------------

cmd_status() {
  local pid
  pid=$(qemu_pid || true)
  if [ -z "$pid" ]; then
    local orphans
    orphans=$(orphan_pids)
    if [ -n "$orphans" ]; then
      echo "a lab's QEMU runs without its state (pid $orphans): ./its xen down stops it"
    elif [ -f "$STATE/started" ]; then
      echo "no lab is running (the lab started $(cat "$STATE/started") has ended: ./its xen down clears its state)"
    else
      echo "no lab is running"
    fi
    return 0
  fi
  echo "lab running since $(cat "$STATE/started"): QEMU pid $pid ($(cat "$STATE/accel")), dom0 at ssh -p $(cat "$STATE/ssh.port") root@127.0.0.1 (./its xen ssh)"
  echo "logs: $(cat "$STATE/logs")"
  dom0_ssh 'xl cpupool-list; echo; xl list -c' 2>/dev/null || echo "(dom0 does not answer yet)"
}

# Stops the lab's QEMU and removes its state; keeps the logs. Idempotent.
stop_lab() {
  local pid logs
  pid=$(qemu_pid || true)
  logs=$(cat "$STATE/logs" 2>/dev/null || true)
  if [ -n "$pid" ] && [ -n "$logs" ] && [ -f "$STATE/ssh.port" ]; then
    # The domains' consoles and Xen's log live in dom0: fetch them before it goes.
    dom0_ssh 'cd /var/log/xen && tar -c console xl-*.log 2>/dev/null; true' 2>/dev/null | tar -C "$logs" -x 2>/dev/null || true
    dom0_ssh 'xl dmesg' >"$logs/xl-dmesg.log" 2>/dev/null || true
  fi
  local pids
  pids=$(echo "$pid" $(orphan_pids) | tr ' ' '\n' | sort -u | grep . || true)
  if [ -n "$pids" ]; then
    kill $pids 2>/dev/null || true
    local i
    for i in $(seq 50); do
      kill -0 $pids 2>/dev/null || break
      sleep 0.2
    done
    kill -9 $pids 2>/dev/null || true
  fi
  rm -rf "$STATE"
}

cmd_down() {
  if [ -z "$(qemu_pid || true)" ] && [ -z "$(orphan_pids)" ] && [ ! -d "$STATE" ]; then
    echo "no lab is running"
    return 0
  fi
  local logs
  logs=$(cat "$STATE/logs" 2>/dev/null || true)
  stop_lab
  echo "lab stopped${logs:+; its logs are in $logs}"
}

cmd_ssh() {
  [ -n "$(qemu_pid || true)" ] || die "no lab is running (./its xen up)"
  local machine=dom0
  if [ $# -gt 0 ] && [[ $1 != -* ]] && { [ "$1" = dom0 ] || [ -f "$CONFIGS/domains/$1.cfg" ]; }; then
    machine=$1
    shift
  fi
  if [ "$machine" = dom0 ]; then
    exec ssh "${SSH_OPTIONS[@]}" -i "$(cat "$STATE/build")/id_ed25519" -p "$(cat "$STATE/ssh.port")" root@127.0.0.1 "$@"
  fi
  # A domain through dom0, which holds the lab's key and routes to xenbr0.
  local tty=-T
  [ -t 0 ] && tty=-t
  exec ssh "${SSH_OPTIONS[@]}" -i "$(cat "$STATE/build")/id_ed25519" -p "$(cat "$STATE/ssh.port")" $tty root@127.0.0.1 \
    ssh $tty "$machine" ${1+"$(printf '%q ' "$@")"}
}

[ $# -ge 1 ] || { usage; exit 2; }
command=$1
shift
case $command in
  up) cmd_up "$@" ;;
  create) cmd_create "$@" ;;
  status) cmd_status ;;
  down) cmd_down ;;
  ssh) cmd_ssh "$@" ;;
  build) preflight; "$HERE/build-lab.sh" >/dev/null ;;
  shares) exec "$HERE/budget-shares.sh" "$@" ;;
  experiment) exec "$HERE/lab-experiment.sh" "$@" ;;
  stage) cmd_stage "$@" ;;
  -h|--help|help) usage ;;
  *) usage >&2; die "unknown xen command: $command" ;;
esac
