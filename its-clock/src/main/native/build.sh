#!/bin/sh
# Builds the latency clock's JNI library into the class path so that it is packaged in the jar.
# Called by producers/pom.xml: build.sh <java.home> <output .so> <source .c>
set -eu
java_home="$1"
out="$2"
src="$3"
cc="${CC:-gcc}"

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "ERROR: '$cc' not found. The producers module compiles its TSC clock library" >&2
    echo "($src) with a C compiler; install gcc (Debian/Ubuntu: apt-get install gcc) or set CC." >&2
    exit 1
fi
if [ ! -f "$java_home/include/jni.h" ]; then
    echo "ERROR: $java_home/include/jni.h not found: build with a full JDK, not a JRE." >&2
    exit 1
fi

mkdir -p "$(dirname "$out")"
exec "$cc" -O2 -shared -fPIC -std=c11 -Wall -Wextra \
    -fvisibility=hidden -Wl,-z,noexecstack \
    -I"$java_home/include" -I"$java_home/include/linux" \
    -o "$out" "$src"
