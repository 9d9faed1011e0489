#!/usr/bin/env bash
# Drives the web console (/__mock/) in headless Chromium: a musbooking registration run with
# plain HTTP shows its SMS code live, the e-mail's link confirms the account, Reset empties the
# inbox. Screenshots of each step (desktop and 375 px) go to ${CI_OUTPUT_DIR:-.build/console-screenshots}.
# Installs Debian's chromium + chromium-driver and Selenium (in .venv-console) when missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SHOTS="${CI_OUTPUT_DIR:-$ROOT/.build/console-screenshots}"
[[ -n "${CI_OUTPUT_DIR:-}" ]] && SHOTS="$SHOTS/console-screenshots"

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver > /dev/null
fi
VENV="$ROOT/.venv-console"
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c "import selenium" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check selenium
fi

# The debug build: CI has just built it, and a release binary could be older than the sources.
swift build 2>&1 | tail -1
BIN="$ROOT/.build/debug/mock-server"
OUT="$(mktemp)"
"$BIN" --port 0 --log-level warning > "$OUT" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -f "$OUT"' EXIT
PORT=""
for _ in $(seq 1 100); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT" | head -1 | sed 's/.*://')" && [[ -n "$PORT" ]] && break
    sleep 0.05
done
[[ -n "$PORT" ]] || { echo "console-test: server did not start"; cat "$OUT"; exit 1; }

timeout 180 "$VENV/bin/python" "$ROOT/scripts/console-test.py" "http://127.0.0.1:$PORT" "$SHOTS"
