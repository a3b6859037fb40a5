#!/usr/bin/env bash
# The pipeline for the lab's domains, as a disk image: the repository's files (as in the work
# tree), the modules' built jars and every jar their class paths name, with the class paths
# rewritten to where the image is mounted in the guests (/opt/its-rt/stage). Inside it,
# `./its kafka`, `./its cluster` and `./its experiment` run as they do here, without Maven: each
# module's build stamp is newer than its sources, so the launcher builds nothing.
#   stage.sh IMAGE   builds the modules, then writes IMAGE (ext4); prints its size
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$(dirname "$HERE")")
IMAGE=${1:?usage: stage.sh IMAGE}
MOUNT=/opt/its-rt/stage
# What the lab runs: the experiment runner (commands: producers, probe, the plan's runner), the
# Flink cluster's processes (local-cluster) and the broker (local-stack), and the job's jar.
MODULES=(commands local-cluster local-stack its-job)

log() { printf '[xen-lab] %s\n' "$*" >&2; }
die() { printf 'its xen: %s\n' "$*" >&2; exit 2; }

# Maven's local repository, where the class paths' jars are (MAVEN_REPO where it is not the default).
M2=${MAVEN_REPO:-$HOME/.m2/repository}
log "building ${MODULES[*]} for the lab's domains"
# Maven's console library writes colour resets even in quiet batch mode: its output is shown
# only when the build fails.
if ! output=$(cd "$ROOT" && mvn -q -B -Dstyle.color=never -pl "$(IFS=,; echo "${MODULES[*]}")" -am package -DskipTests 2>&1); then
  printf '%s\n' "$output" >&2
  die "building ${MODULES[*]} failed (above)"
fi

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/m2"
# The repository as it is in the work tree (tracked and new files alike, nothing git ignores).
(cd "$ROOT" && git ls-files -co --exclude-standard -z | tar --null -T - -c) | tar -C "$tree" -x
rm -rf "$tree/.git"
# Every class path listing the build wrote (classpath.txt; Flink's lib and the job's cluster
# class paths beside it), each jar it names copied once under m2/ as in the local repository,
# and the listing rewritten to where the guests see them.
for listing in $(cd "$ROOT" && ls */target/*classpath.txt); do
  module=${listing%%/*}
  mkdir -p "$tree/$module/target"
  tr ':' '\n' <"$ROOT/$listing" | while IFS= read -r jar; do
    [ -n "$jar" ] || continue
    case $jar in
      "$M2"/*) rel=${jar#"$M2"/}; [ -f "$tree/m2/$rel" ] || { mkdir -p "$tree/m2/$(dirname "$rel")"; cp -p "$jar" "$tree/m2/$rel"; } ;;
      "$ROOT"/*) ;;
      *) die "$listing names $jar, outside the Maven repository $M2 and the project" ;;
    esac
  done
  sed -e "s|$M2/|$MOUNT/m2/|g" -e "s|$ROOT/|$MOUNT/|g" "$ROOT/$listing" >"$tree/$listing"
done
for module in $(cd "$ROOT" && ls -d */target/classpath.txt | cut -d/ -f1); do
  cp -p "$ROOT/$module"/target/*.jar "$tree/$module/target/" 2>/dev/null || true
  touch "$tree/$module/target/.its-built"
done
size_mb=$(( $(du -sm "$tree" | cut -f1) * 12 / 10 + 64 ))
rm -f "$IMAGE"
truncate -s "${size_mb}M" "$IMAGE"
mkfs.ext4 -q -F -L its-stage -d "$tree" "$IMAGE" || die "mkfs.ext4 -d could not write $IMAGE"
log "staged the pipeline: $IMAGE (${size_mb} MB; mounted read-only at $MOUNT in dom0 and the rt-vm)"
