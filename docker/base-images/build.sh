#!/usr/bin/env bash
# Builds the stand-in base images docker/ names, from official release artifacts, into the Docker
# engine DOCKER_HOST points to (docker/engine.sh start gives one of its own, which never touches
# a user's images): the Debian base (debootstrap), the Java 17 runtime and the Maven build image,
# Flink 2.2.1 (the release's binary distribution from PyPI), Kafka and ZooKeeper (their releases'
# jars from Maven Central). Each is tagged with the name docker/Dockerfile and docker/compose.yaml
# use (read from those files), so the project's own files build and run unchanged. Nothing is
# pushed. An image already present is kept unless --rebuild. Prints each build's time.
#
#   docker/base-images/build.sh [--rebuild]
#
# Downloads are cached in ITS_BASE_IMAGES_CACHE (default ~/.cache/its-rt/base-images).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKER_DIR=$(dirname "$HERE")
ROOT=$(dirname "$DOCKER_DIR")
CACHE=${ITS_BASE_IMAGES_CACHE:-$HOME/.cache/its-rt/base-images}
DEBIAN_BASE=its-rt-base/debian:bookworm
REBUILD=false

say() { printf 'base-images: %s\n' "$*"; }
die() { printf 'base-images: %s\n' "$*" >&2; exit 1; }

for arg in "$@"; do
  case "$arg" in
    --rebuild) REBUILD=true ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $arg (expected --rebuild)" ;;
  esac
done
command -v docker >/dev/null || die "docker not found (docker/engine.sh start installs and starts an engine)"
docker info > /dev/null 2>&1 || die "no Docker engine answers at ${DOCKER_HOST:-the default socket} (docker/engine.sh start)"

# The names the project's files use: the build stage's and the tools' bases from docker/Dockerfile,
# the services' images from docker/compose.yaml.
from_line() { sed -n -e "s|^FROM \($1[^ ]*\).*|\1|p" "$DOCKER_DIR/Dockerfile" | head -1; }
image_line() { sed -n -e "s|^ *image: \($1[^ ]*\) *$|\1|p" "$DOCKER_DIR/compose.yaml" | head -1; }
MAVEN_IMAGE=$(from_line maven:)
FLINK_IMAGE=$(from_line flink:)
JRE_IMAGE=$(from_line eclipse-temurin:)
KAFKA_IMAGE=$(image_line apache/kafka:)
ZOOKEEPER_IMAGE=$(image_line zookeeper:)
for name in MAVEN_IMAGE FLINK_IMAGE JRE_IMAGE KAFKA_IMAGE ZOOKEEPER_IMAGE; do
  [ -n "${!name}" ] || die "could not read $name's tag from docker/Dockerfile or docker/compose.yaml"
done
FLINK_VERSION=${FLINK_IMAGE#flink:}
FLINK_VERSION=${FLINK_VERSION%%-*}
KAFKA_VERSION=${KAFKA_IMAGE#apache/kafka:}
MAVEN_VERSION=${MAVEN_IMAGE#maven:}
MAVEN_VERSION=${MAVEN_VERSION%%-*}

have_image() { docker image inspect "$1" > /dev/null 2>&1; }
should_build() {
  if [ "$REBUILD" = false ] && have_image "$1"; then
    say "$1: present (--rebuild builds it again)"
    return 1
  fi
}
timed_build() { # TAG CONTEXT [docker build options...]
  local tag=$1 context=$2 started
  shift 2
  started=$(date +%s)
  say "$tag: building ..."
  # The output only when the build fails (the engine's builder also warns on every build that
  # it is the legacy one: BuildKit needs the buildx plugin, which Debian's engine lacks).
  if ! output=$(docker build --tag "$tag" "$@" "$context" 2>&1); then
    printf '%s\n' "$output" | tail -30 >&2
    die "$tag: the build failed (its last lines above)"
  fi
  say "$tag: built in $(( $(date +%s) - started )) s"
}
# A build context: the image's folder from the repository and the artifacts added to it.
stage() {
  local dir=$CACHE/context/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -a "$HERE/$1/." "$dir/"
  echo "$dir"
}
maven_copy() { # POM OUTPUT_DIR
  local output
  rm -rf "$2"
  if ! output=$(mvn -B -Dstyle.color=never -f "$1" dependency:copy-dependencies -DincludeScope=runtime \
                  -DoutputDirectory="$2" 2>&1); then
    printf '%s\n' "$output" | grep -E '^\[(ERROR|WARNING)\]' | head -20 >&2
    die "could not fetch the artifacts of $1 from Maven"
  fi
}

mkdir -p "$CACHE"
if [ "$REBUILD" = true ] || ! have_image "$DEBIAN_BASE"; then
  started=$(date +%s)
  "$HERE/debian/make-base.sh" "$DEBIAN_BASE"
  say "$DEBIAN_BASE: made in $(( $(date +%s) - started )) s"
fi

if should_build "$JRE_IMAGE"; then
  timed_build "$JRE_IMAGE" "$HERE/jre" --build-arg DEBIAN_BASE="$DEBIAN_BASE"
fi

if should_build "$MAVEN_IMAGE"; then
  context=$(stage maven)
  maven_copy "$HERE/maven/pom.xml" "$context/download"
  jar=$(ls "$context"/download/apache-maven-*-bin.tar.gz)
  [ "$(basename "$jar")" = "apache-maven-$MAVEN_VERSION-bin.tar.gz" ] \
    || die "docker/Dockerfile wants Maven $MAVEN_VERSION, docker/base-images/maven/pom.xml gives $(basename "$jar")"
  mv "$jar" "$context/apache-maven-bin.tar.gz"
  rm -rf "$context/download"
  timed_build "$MAVEN_IMAGE" "$context" --build-arg DEBIAN_BASE="$DEBIAN_BASE"
fi

if should_build "$FLINK_IMAGE"; then
  context=$(stage flink)
  wheels=$CACHE/pypi/flink-$FLINK_VERSION
  if [ ! -f "$wheels/.complete" ]; then
    say "fetching Flink $FLINK_VERSION's distribution from PyPI ..."
    rm -rf "$wheels"
    mkdir -p "$wheels"
    # bin/ and conf/ are the same in every Python version's wheel: any one of them will do.
    python3 -m pip download --quiet --no-deps --dest "$wheels" "apache-flink-libraries==$FLINK_VERSION" \
      || die "could not fetch apache-flink-libraries==$FLINK_VERSION from PyPI"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux2014_x86_64 --dest "$wheels" "apache-flink==$FLINK_VERSION" \
      || die "could not fetch apache-flink==$FLINK_VERSION from PyPI"
    touch "$wheels/.complete"
  fi
  python3 - "$wheels" "$context/flink-dist" <<'PY'
import pathlib, sys, zipfile
wheels, dist = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
# The distribution's folders as the release's tarball has them, from pyflink/ in the two wheels.
folders = ("bin/", "conf/", "lib/", "opt/", "plugins/", "licenses/")
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            relative = name[len("pyflink/"):] if name.startswith("pyflink/") else None
            if relative and relative.startswith(folders) and not name.endswith("/"):
                target = dist / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(name))
for required in ("bin/jobmanager.sh", "bin/config-parser-utils.sh", "bin/bash-java-utils.jar", "conf/config.yaml"):
    if not (dist / required).exists():
        sys.exit(f"base-images: the Flink wheels in {wheels} lack {required}")
if not list((dist / "lib").glob("flink-dist-*.jar")):
    sys.exit(f"base-images: the Flink wheels in {wheels} lack lib/flink-dist-*.jar")
PY
  timed_build "$FLINK_IMAGE" "$context" --build-arg JRE_IMAGE="$JRE_IMAGE"
fi

if should_build "$KAFKA_IMAGE"; then
  context=$(stage kafka)
  maven_copy "$HERE/kafka/pom.xml" "$context/libs"
  [ -f "$context/libs/kafka_2.13-$KAFKA_VERSION.jar" ] \
    || die "docker/compose.yaml wants Kafka $KAFKA_VERSION, the project's kafka.version gives $(cd "$context/libs" && ls kafka_2.13-*.jar)"
  rm -f "$context/pom.xml"
  timed_build "$KAFKA_IMAGE" "$context" --build-arg JRE_IMAGE="$JRE_IMAGE"
fi

if should_build "$ZOOKEEPER_IMAGE"; then
  context=$(stage zookeeper)
  maven_copy "$HERE/zookeeper/pom.xml" "$context/lib"
  zookeeper_jar=$(cd "$context/lib" && ls zookeeper-3*.jar | grep -v jute)
  want=${ZOOKEEPER_IMAGE#zookeeper:}
  case "$zookeeper_jar" in
    "zookeeper-$want".*|"zookeeper-$want.jar") ;;
    *) die "docker/compose.yaml wants ZooKeeper $want, the project's zookeeper.version gives $zookeeper_jar" ;;
  esac
  rm -f "$context/pom.xml"
  timed_build "$ZOOKEEPER_IMAGE" "$context" --build-arg JRE_IMAGE="$JRE_IMAGE"
fi
say "ready: $DEBIAN_BASE $JRE_IMAGE $MAVEN_IMAGE $FLINK_IMAGE $KAFKA_IMAGE $ZOOKEEPER_IMAGE"
