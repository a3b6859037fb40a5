#!/usr/bin/env bash
# `jvm-check.sh DOMAIN [SECONDS] [JAVA_OPTION...]`: runs JvmCheck in a domain of the running lab
# (dom0 or a bundled domain) and prints its line: results computed, and how many differed from
# the first of their kind. Compiled here with the host's JDK; the domains have a JRE only.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB=$(dirname "$HERE")/lab.sh
[ $# -ge 1 ] || { echo "usage: $0 DOMAIN [SECONDS] [JAVA_OPTION...]" >&2; exit 2; }
domain=$1
seconds=${2:-60}
shift $(($# >= 2 ? 2 : 1))
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
javac --release 17 -d "$build" "$HERE/JvmCheck.java"
(cd "$build" && jar cf jvm-check.jar JvmCheck*.class)
"$LAB" ssh "$domain" 'cat >/tmp/jvm-check.jar' <"$build/jvm-check.jar"
# printf with no JAVA_OPTION would still print '' (an empty main class to java).
options=
[ $# -eq 0 ] || options=$(printf '%q ' "$@")
"$LAB" ssh "$domain" "java $options -cp /tmp/jvm-check.jar JvmCheck $seconds 2"
