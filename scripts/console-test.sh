#!/usr/bin/env bash
# Drives the web console (/__mock/) in headless Chromium: a musbooking registration run with
# plain HTTP shows its SMS code live, the e-mail's link confirms the account, Reset empties the
# inbox; axe-core finds no serious or critical issue on any tab and every control works from the
# keyboard alone. Screenshots of each step (desktop and 375 px) go to ${CI_OUTPUT_DIR:-.build/console-screenshots}.
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
source scripts/lib/python-venv.sh
source scripts/lib/mock-server.sh
VENV="$ROOT/.venv-console"
ensure_venv "$VENV" selenium axe-selenium-python==2.1.6

# The page is also opened from a non-loopback address, as from a phone: 192.0.2.1 (TEST-NET-1) on
# the loopback of a network namespace this script makes itself (root: unshare -n), never this
# machine's own LAN address. Everything above (apt, pip) ran outside it; the rest runs inside.
if [[ -z "${MOCK_CONSOLE_NETNS:-}" ]]; then
    if [[ "$(id -u)" -eq 0 ]] && command -v unshare > /dev/null && command -v ip > /dev/null; then
        exec unshare -n env MOCK_CONSOLE_NETNS=192.0.2.1 bash -c \
            'ip link set lo up && ip addr add "$MOCK_CONSOLE_NETNS/24" dev lo && exec bash "$0" "$@"' "$0" "$@"
    fi
    echo "console-test: not root (or no unshare/ip): the page will not be opened from a non-loopback address" >&2
else
    export MOCK_CONSOLE_REMOTE_ADDRESS="$MOCK_CONSOLE_NETNS"
fi

# The debug build: CI has just built it, and a release binary could be older than the sources.
# On every interface with an admin token, as for a phone: the page is also opened from the
# namespace's non-loopback address, signed in by the token URL (loopback works as without a token).
export MOCK_CONSOLE_TOKEN="console-test-token-$RANDOM$RANDOM"
start_mock_server console-test --host 0.0.0.0 --admin-token "$MOCK_CONSOLE_TOKEN"

timeout 480 "$VENV/bin/python" "$ROOT/scripts/console-test.py" "http://127.0.0.1:$PORT" "$SHOTS"
