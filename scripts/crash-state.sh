#!/usr/bin/env bash
# Crash test of --state (see scripts/crash_state.py): up to 200 SIGKILLs at random moments during
# a stream of registrations, each restart on the same file. Bounded to about two minutes.
# CI runs it with --register (each account must log in after the restart).
# Usage: scripts/crash-state.sh [--release] [crash_state.py options]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
config=debug
if [[ "${1:-}" == "--release" ]]; then config=release; shift; fi
swift build -c "$config" --product mock-server >/dev/null
exec python3 scripts/crash_state.py ".build/$config/mock-server" seed.json "$@"
