#!/usr/bin/env bash
# Runs the Autobahn|Testsuite fuzzing client (cases 1–7, 9, 10) against a release build of
# mock-server and fails on any FAILED or missing case. The server reads MOCK_POLLER from the
# environment, so `MOCK_POLLER=poll scripts/autobahn.sh` runs it on the poll(2) backend.
#
#   scripts/autobahn.sh            install (cached), build, run, verify
#   scripts/autobahn.sh --install  only install Autobahn into .autobahn/venv
#
# Autobahn is Python 2 code: it lives in a Python 2.7 virtualenv made by virtualenv 20.21.1
# (the last line that can), itself installed into a Python 3 venv. See shared tools-notes.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
AB="$ROOT/.autobahn"
TOOLS="$AB/tools"          # Python 3 venv holding virtualenv
VENV="$AB/venv"            # Python 2.7 venv holding wstest
REPORTS="$AB/reports"
TIMEOUT_SECONDS="${AUTOBAHN_TIMEOUT:-900}"

# --no-deps from a pinned list: the sdist declares no dependencies, and newer versions of
# these packages no longer support Python 2.7.
PINNED="autobahntestsuite==25.10.1 autobahn==0.10.9 Twisted==19.10.0 txaio==2.1.0
zope.interface==4.6.0 incremental==16.10.1 constantly==15.1.0 Automat==22.10.0 attrs==21.4.0
hyperlink==21.0.0 idna==2.10 PyHamcrest==1.10.1 pyOpenSSL==19.1.0 cryptography==3.3.2
cffi==1.15.1 pycparser==2.21 enum34==1.1.10 ipaddress==1.0.23 service-identity==18.1.0
pyasn1==0.5.1 pyasn1-modules==0.3.0 Jinja2==2.11.3 MarkupSafe==1.1.1 Werkzeug==1.0.1
klein==17.10.0 six==1.16.0 typing==3.10.0.0 unittest2==1.1.0 argparse==1.4.0 linecache2==1.0.0
traceback2==1.4.0 ujson==2.0.3 wsaccel==0.6.6"

install_autobahn() {
    local marker="$VENV/.installed"
    if [[ -f "$marker" && "$(cat "$marker")" == "$PINNED" && -x "$VENV/bin/wstest" ]]; then
        return 0
    fi
    echo "autobahn: installing into $VENV" >&2
    mkdir -p "$AB"
    rm -rf "$TOOLS" "$VENV"
    # The python2.7 shim fails unless 2.7 is selected, so call pyenv's binary directly.
    local py2
    py2="$(pyenv root)/versions/2.7.18/bin/python2.7"
    [[ -x "$py2" ]] || { echo "autobahn: $py2 not found (pyenv Python 2.7.18 required)" >&2; exit 2; }
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/pip" install --quiet --disable-pip-version-check "virtualenv==20.21.1"
    "$TOOLS/bin/virtualenv" --quiet -p "$py2" "$VENV"
    # shellcheck disable=SC2086  # word splitting of the pinned list is intended
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps $PINNED
    "$VENV/bin/python" -c "import autobahntestsuite, autobahn, twisted" >/dev/null
    printf '%s' "$PINNED" > "$marker"
}

install_autobahn
if [[ "${1:-}" == "--install" ]]; then
    echo "autobahn: installed ($VENV/bin/wstest)"
    exit 0
fi

cd "$ROOT"
swift build -c release
SERVER_BIN="$ROOT/.build/release/mock-server"

SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
}
trap stop_server EXIT INT TERM

mkdir -p "$AB"
SERVER_OUT="$AB/server.out"
"$SERVER_BIN" --host 127.0.0.1 --port 0 --max-ws-message-bytes 16777216 --log-level warning \
    >"$SERVER_OUT" 2>"$AB/server.err" &
SERVER_PID=$!

# With --port 0 the server picks a free port and names it in its banner line.
PORT=""
for _ in $(seq 1 100); do
    PORT=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$SERVER_OUT" 2>/dev/null | head -n 1 | sed 's/.*://' || true)
    [[ -n "$PORT" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
done
if [[ -z "$PORT" ]]; then
    echo "autobahn: server did not print its port; stdout:" >&2
    cat "$SERVER_OUT" "$AB/server.err" >&2 || true
    exit 2
fi
echo "autobahn: server on port $PORT (pid $SERVER_PID, poller ${MOCK_POLLER:-default})"

rm -rf "$REPORTS"
mkdir -p "$REPORTS"
SPEC="$AB/spec.json"
cat >"$SPEC" <<JSON
{
  "outdir": "$REPORTS/servers",
  "servers": [{"agent": "mock-server", "url": "ws://127.0.0.1:$PORT/__mock/echo"}],
  "cases": ["1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "9.*", "10.*"],
  "exclude-cases": [],
  "exclude-agent-cases": {}
}
JSON

LOG="$AB/wstest.log"
set +e
(cd "$AB" && timeout "$TIMEOUT_SECONDS" "$VENV/bin/wstest" -m fuzzingclient -s "$SPEC") >"$LOG" 2>&1
WSTEST_STATUS=$?
set -e
if [[ $WSTEST_STATUS -ne 0 ]]; then
    echo "autobahn: wstest exited with $WSTEST_STATUS (124 = timeout); log: $LOG" >&2
    tail -n 20 "$LOG" >&2
fi

# wstest exits 0 even when the server is unreachable, so compare the report with the log.
python3 - "$LOG" "$REPORTS/servers/index.json" "$WSTEST_STATUS" <<'PY'
import json, re, sys
log_path, index_path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(log_path, encoding="utf-8", errors="replace") as f:
    m = re.search(r"will run (\d+) test cases", f.read())
expected = int(m.group(1)) if m else None
try:
    with open(index_path, encoding="utf-8") as f:
        index = json.load(f)
except (OSError, ValueError) as e:
    index = {}
    print(f"autobahn: no report ({e})", file=sys.stderr)
cases = index.get("mock-server", {})
counts = {k: 0 for k in ("OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED")}
failed = []
for case_id, result in sorted(cases.items()):
    behaviors = (result.get("behavior"), result.get("behaviorClose"))
    if "FAILED" in behaviors:
        counts["FAILED"] += 1
        failed.append(f"{case_id} behavior={behaviors[0]} close={behaviors[1]}")
    else:
        counts[behaviors[0]] = counts.get(behaviors[0], 0) + 1
print("autobahn: {} cases, {} OK, {} NON-STRICT, {} INFORMATIONAL, {} UNIMPLEMENTED, {} FAILED".format(
    len(cases), counts["OK"], counts["NON-STRICT"], counts["INFORMATIONAL"], counts["UNIMPLEMENTED"], counts["FAILED"]))
for line in failed:
    print("  FAILED " + line)
ok = True
if expected is None:
    print("autobahn: the log has no 'will run N test cases' line", file=sys.stderr)
    ok = False
elif len(cases) != expected:
    print(f"autobahn: {len(cases)} cases reported, {expected} expected (server down?)", file=sys.stderr)
    ok = False
if failed or status != 0:
    ok = False
sys.exit(0 if ok else 1)
PY
