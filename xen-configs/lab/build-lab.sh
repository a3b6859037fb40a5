#!/usr/bin/env bash
# Builds the Xen lab's files once into a cache folder named after what they are made of:
#   xen          the hypervisor, Debian's own Xen source package rebuilt with RTDS (Debian's
#                xen-hypervisor package is built without it: CONFIG_SCHED_RTDS needs
#                CONFIG_EXPERT and CONFIG_UNSUPPORTED) and the fixes in patches/ (each says
#                what it fixes), as the multiboot ELF QEMU loads
#   vmlinuz, initrd.img   Debian's kernel, for dom0 (booted by QEMU) and for the domains (the
#                same files inside the image, which the domain configs' kernel= names)
#   base.img     an ext4 root file system from debootstrap: the kernel, Xen's tools (xl) of the
#                same source version, OpenJDK 17, sshd; the lab's dom0 and every domain boot
#                copy-on-write layers of it (xen-configs/lab/guest/ gives each its identity)
#   id_ed25519   the lab's SSH key (root on every lab machine; the lab is reachable only from
#                this host's loopback)
#   manifest.txt the versions it was built from
# The folder's name is a digest of the suite's package versions (looked up in Debian's archive)
# and of this script and guest/, so a new Debian point release or a change here builds anew and
# an unchanged one is found again. Run by lab.sh (`./its xen up` / `./its xen build`), as root.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SUITE=bookworm
MIRROR=${ITS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${ITS_XEN_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/its-rt/xen-lab}
# The image's packages. xen-utils-4.17 comes from the same source version as the hypervisor
# built here, so xl and Xen agree.
GUEST_PACKAGES=(linux-image-amd64 xen-utils-4.17 xenstore-utils openjdk-17-jre-headless
  iproute2 openssh-server systemd-sysv udev kmod initramfs-tools procps util-linux e2fsprogs
  netbase less)
# Debian's hypervisor config (debian/xen-kconfig) plus what RTDS needs.
XEN_KCONFIG_EXTRA=(CONFIG_EXPERT=y CONFIG_UNSUPPORTED=y CONFIG_SCHED_RTDS=y)
# Room for the pipeline's files and Kafka's log beside the ~1.2 GB of packages; sparse.
IMAGE_SIZE=8G

log() { printf '[xen-lab] %s\n' "$*" >&2; }
die() { printf 'its xen: %s\n' "$*" >&2; exit 2; }

APT_DIR=$CACHE/apt
APT_OPTIONS=(-o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache" -o APT::Sandbox::User=root)

# The suite's package lists in a private apt state: the host's own sources are neither read nor
# changed (they often lack deb-src lines, and may point at newer security releases whose sources
# the mirror does not serve).
refresh_lists() {
  mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  printf 'deb %s %s main\ndeb-src %s %s main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" >"$APT_DIR/sources.list"
  apt-get "${APT_OPTIONS[@]}" -qq update >/dev/null 2>"$APT_DIR/update.log"
}

package_version() {
  apt-cache "${APT_OPTIONS[@]}" show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -1
}

source_version() {
  apt-cache "${APT_OPTIONS[@]}" showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1
}

# What the lab is made of, one "name=version" a line: the cache key's input.
versions() {
  local kernel
  kernel=$(apt-cache "${APT_OPTIONS[@]}" show --no-all-versions linux-image-amd64 | sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p')
  printf 'suite=%s\nmirror=%s\n' "$SUITE" "$MIRROR"
  printf 'xen-source=%s\n' "$(source_version xen)"
  printf '%s=%s\n' "$kernel" "$(package_version "$kernel")"
  local p
  for p in xen-utils-4.17 openjdk-17-jre-headless openssh-server systemd; do
    printf '%s=%s\n' "$p" "$(package_version "$p")"
  done
}

recipe_digest() {
  (cd "$HERE" && cat build-lab.sh guest/* patches/*) | sha256sum | cut -c1-12
}

# Prints the build folder for the suite's current versions (which may not exist yet). Offline,
# the newest complete build stands in, said so on stderr.
build_dir() {
  if refresh_lists; then
    local v
    v=$(versions)
    grep -q '^xen-source=.' <<<"$v" || die "Debian's archive ($MIRROR) lists no xen source package for $SUITE"
    printf '%s/builds/%s\n' "$CACHE" "$( { echo "$v"; recipe_digest; } | sha256sum | cut -c1-16)"
    return
  fi
  local newest
  newest=$(ls -td "$CACHE"/builds/*/manifest.txt 2>/dev/null | head -1 || true)
  [ -n "$newest" ] || die "cannot reach Debian's archive at $MIRROR to build the lab (apt-get update: $(tail -1 "$APT_DIR/update.log"))"
  log "Debian's archive is not reachable: using the lab built on $(stat -c %y "$newest" | cut -d. -f1)"
  dirname "$newest"
}

build_hypervisor() {
  local work=$1 version=$2 src
  mkdir -p "$work/src"
  (cd "$work/src" && apt-get "${APT_OPTIONS[@]}" -qq source "xen=$version" >"$work/xen-source.log" 2>&1) \
    || { tail -5 "$work/xen-source.log" >&2; return 1; }
  src=$(find "$work/src" -maxdepth 1 -type d -name 'xen-*' | head -1)
  local patch
  for patch in "$HERE"/patches/*.patch; do
    patch -d "$src" -p1 --forward --quiet <"$patch" >>"$work/xen-source.log" 2>&1 \
      || { echo "$patch does not apply to Xen $version" >&2; return 1; }
  done
  cp "$src/debian/xen-kconfig" "$src/xen/.config"
  printf '%s\n' "${XEN_KCONFIG_EXTRA[@]}" >>"$src/xen/.config"
  make -C "$src/xen" XEN_TARGET_ARCH=x86_64 olddefconfig >"$work/xen-build.log" 2>&1
  make -C "$src/xen" XEN_TARGET_ARCH=x86_64 -j"$(nproc)" xen >>"$work/xen-build.log" 2>&1 \
    || { tail -20 "$work/xen-build.log" >&2; return 1; }
  local option
  for option in "${XEN_KCONFIG_EXTRA[@]}"; do
    grep -qx "$option" "$src/xen/.config" || { echo "the hypervisor's config lost $option" >&2; return 1; }
  done
  cp "$src/xen/xen" "$work/xen"
  cp "$src/xen/.config" "$work/xen.config"
  rm -rf "$work/src"
}

build_tree() {
  local work=$1 tree=$1/tree
  debootstrap --variant=minbase --include="$(IFS=,; echo "${GUEST_PACKAGES[*]}")" "$SUITE" "$tree" "$MIRROR" \
    >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; return 1; }
}

# The lab's own settings inside the tree: identity at boot, SSH, Xen's console logs, and no
# services a lab machine does not need (under emulation every unit costs seconds of boot).
customize_tree() {
  local work=$1 tree=$1/tree
  install -m 0755 "$HERE/guest/its-lab-init" "$tree/usr/local/sbin/its-lab-init"
  install -m 0755 "$HERE/guest/its-lab-burn" "$tree/usr/local/bin/its-lab-burn"
  install -D -m 0644 "$HERE/guest/addresses" "$tree/etc/its-lab/addresses"
  install -m 0644 "$HERE/guest/its-lab-init.service" "$tree/etc/systemd/system/its-lab-init.service"
  # xen.service (the sysv script) starts xenstored and xenconsoled in dom0 only; in a domain it
  # would spend seconds loading modules to find that out.
  install -D -m 0644 "$HERE/guest/dom0-only.conf" "$tree/etc/systemd/system/xen.service.d/dom0-only.conf"
  chroot "$tree" systemctl enable its-lab-init.service >/dev/null 2>&1
  # xendomains would start and save domains of its own; agetty on hvc0 hangs up the console.
  chroot "$tree" systemctl mask xendomains.service serial-getty@hvc0.service e2scrub_reap.service \
    e2scrub_all.timer apt-daily.timer apt-daily-upgrade.timer getty-static.service >/dev/null 2>&1
  awk '!/^#/ && NF { print $1 "\t" $2 }' "$HERE/guest/addresses" >>"$tree/etc/hosts"
  echo its-lab >"$tree/etc/hostname"
  # Empty: systemd makes a machine id per boot, so the three machines never share one.
  : >"$tree/etc/machine-id"
  echo 'XENCONSOLED_ARGS="--log=guest --log-dir=/var/log/xen/console"' >>"$tree/etc/default/xen"
  install -D -m 0644 "$HERE/guest/sshd-its-lab.conf" "$tree/etc/ssh/sshd_config.d/its-lab.conf"
  install -d -m 0700 "$tree/root/.ssh"
  ssh-keygen -q -t ed25519 -N '' -C its-rt-xen-lab -f "$work/id_ed25519"
  install -m 0600 "$work/id_ed25519.pub" "$tree/root/.ssh/authorized_keys"
  install -m 0600 "$work/id_ed25519" "$tree/root/.ssh/id_ed25519"
  install -m 0600 "$HERE/guest/ssh-config" "$tree/root/.ssh/config"
  # An initramfs with only the root disk's drivers (Xen's blkfront in a domain, virtio in dom0):
  # Debian's default takes every storage driver, and udev probing them under emulation took
  # minutes of a domain's boot.
  sed -i 's/^MODULES=.*/MODULES=list/' "$tree/etc/initramfs-tools/initramfs.conf"
  printf '%s\n' xen_blkfront virtio_pci virtio_blk ext4 >>"$tree/etc/initramfs-tools/modules"
  mount -t proc proc "$tree/proc"
  chroot "$tree" update-initramfs -u -k all >"$work/initramfs.log" 2>&1 || { umount "$tree/proc"; cat "$work/initramfs.log" >&2; return 1; }
  umount "$tree/proc"
  cp "$tree"/boot/vmlinuz-* "$work/vmlinuz"
  cp "$tree"/boot/initrd.img-* "$work/initrd.img"
  chroot "$tree" dpkg-query -W -f '${Package}=${Version}\n' >"$work/packages.txt"
}

build() {
  local dir=$1 work=$1.partial xen_version
  xen_version=$(source_version xen)
  rm -rf "$work"
  mkdir -p "$work"
  log "building the lab into $dir (once per Debian release: about 5 min here, ~10 on a cold machine)"
  log "  Xen $xen_version from Debian's source, with ${XEN_KCONFIG_EXTRA[*]} (log: $work/xen-build.log)"
  build_hypervisor "$work" "$xen_version" &
  local hypervisor=$!
  log "  root file system: debootstrap $SUITE with ${#GUEST_PACKAGES[@]} packages (log: $work/debootstrap.log)"
  if ! build_tree "$work"; then
    wait "$hypervisor" || true
    die "debootstrap of $SUITE from $MIRROR failed (log: $work/debootstrap.log)"
  fi
  wait "$hypervisor" || die "building Xen $xen_version failed (log: $work/xen-build.log)"
  customize_tree "$work" || die "customizing the root file system failed"
  log "  base.img: ext4 of the tree ($IMAGE_SIZE, sparse)"
  mkfs.ext4 -q -F -L its-lab -d "$work/tree" "$work/base.img" "$IMAGE_SIZE" >/dev/null
  rm -rf "$work/tree"
  { versions; echo "recipe=$(recipe_digest)"; echo "built=$(date -u +%FT%TZ)"; } >"$work/manifest.txt"
  rm -rf "$dir"
  mv "$work" "$dir"
  log "lab built: $dir"
}

# The build folder for the current versions, built first if it is missing.
main() {
  mkdir -p "$CACHE/builds"
  local dir
  dir=$(build_dir)
  if [ ! -f "$dir/manifest.txt" ]; then
    build "$dir"
    # Older builds of the lab are of no further use once a newer one exists.
    find "$CACHE/builds" -mindepth 1 -maxdepth 1 ! -path "$dir" -exec rm -rf {} +
  fi
  printf '%s\n' "$dir"
}

main "$@"
