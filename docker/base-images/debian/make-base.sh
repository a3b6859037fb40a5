#!/usr/bin/env bash
# Makes the Debian base every stand-in image starts from: a minimal Debian 12 (bookworm) root
# file system from debootstrap, imported into the current Docker engine as IMAGE. The host's own
# extra certificate authorities (/usr/local/share/ca-certificates) are trusted inside, so that a
# build step reaches Debian's archive and Maven Central the way the host does (a host behind a
# TLS-inspecting proxy needs that; elsewhere the folder is empty and nothing changes).
#
#   make-base.sh IMAGE [MIRROR]      (root; MIRROR defaults to the host's first Debian URI)
set -euo pipefail

IMAGE=${1:?usage: make-base.sh IMAGE [MIRROR]}
say() { printf 'make-base: %s\n' "$*"; }
die() { printf 'make-base: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install debootstrap)"

host_mirror() {
  local uri
  uri=$(grep -hs -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
        | grep -v security | head -1 | awk '{print ($1 == "deb") ? $2 : $2}')
  echo "${uri:-http://deb.debian.org/debian}"
}
MIRROR=${2:-$(host_mirror)}

ROOTFS=$(mktemp -d /var/tmp/its-rt-rootfs.XXXXXX)
cleanup() { rm -rf --one-file-system "$ROOTFS"; }
trap cleanup EXIT

say "debootstrap bookworm from $MIRROR ..."
debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOTFS" "$MIRROR" > "$ROOTFS.log" 2>&1 \
  || { tail -20 "$ROOTFS.log" >&2; rm -f "$ROOTFS.log"; die "debootstrap failed"; }
rm -f "$ROOTFS.log"

cat > "$ROOTFS/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
SOURCES
# Images stay small: no documentation, no recommends, no cached package lists.
cat > "$ROOTFS/etc/apt/apt.conf.d/90its-rt-image" <<'APT'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
APT
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
  chroot "$ROOTFS" update-ca-certificates > /dev/null
fi
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin

say "importing as $IMAGE ..."
tar -C "$ROOTFS" --numeric-owner -c . \
  | docker import --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' - "$IMAGE" > /dev/null
say "done: $IMAGE"
