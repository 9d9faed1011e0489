#!/usr/bin/env bash
# CPU of a proxied request against a direct one (issue 37's cost goal): the server's own CPU
# time (user + system, from /proc/PID/stat) over N keep-alive requests, the upstream's not counted.
#
#   scripts/proxy-cost.sh [BINARY]        (N=20000 WM_N=5000 WIREMOCK_JAR=… to compare WireMock too)
#
# An upstream mock-server answers `GET /p/rows` with the bench's 5.5 KB rows page from `__files`.
# Measured, one at a time, each with one event loop:
#   direct     mock-server --mappings DIR (the same stub, answered here)
#   proxied    mock-server --proxy-all http://127.0.0.1:UPSTREAM --outbound loopback
#   wiremock   WireMock 2.35.1 --proxy-all (when WIREMOCK_JAR names the jar and java is installed)
# Every server is quiet (`--log-level warning --journal-size 0`, WireMock `--no-request-journal`).
# Traffic stays on loopback. Prints ms of CPU per 1,000 requests and the ratios.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/.build/release/mock-server}"
N="${N:-20000}"; WM_N="${WM_N:-5000}"; WARMUP="${WARMUP:-2000}"
WORK="$(mktemp -d /tmp/proxy-cost.XXXXXX)"
PIDS=()
# start_mock runs in a command substitution (a subshell): its servers are known by their pid files.
cleanup() {
    for f in "$WORK"/*.pid; do [[ -f "$f" ]] && kill -KILL "$(cat "$f")" 2>/dev/null; done
    for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/stubs/mappings" "$WORK/stubs/__files"
python3 - "$WORK/stubs/__files/rows.json" <<'PY'
import json, sys
rows = [{"id": i, "name": f"row {i}", "text": "lorem ipsum dolor sit amet " * 3} for i in range(50)]
open(sys.argv[1], "w").write(json.dumps({"rows": rows})[:5532])
PY
# Unchanged for more than two seconds before it is served: the file cache keeps it (as a real folder's).
touch -d '1 minute ago' "$WORK/stubs/__files/rows.json"
cat > "$WORK/stubs/mappings/rows.json" <<'JSON'
{"request": {"method": "GET", "url": "/p/rows"},
 "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFileName": "rows.json"}}
JSON

# Starts a mock-server on port 0; prints its port.
start_mock() {
    local name="$1"; shift
    "$BIN" --port 0 --event-loops 1 --log-level warning --journal-size 0 "$@" > "$WORK/$name.banner" 2> "$WORK/$name.log" &
    echo $! > "$WORK/$name.pid"
    local port=""
    for _ in $(seq 1 600); do
        port="$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/$name.banner" 2>/dev/null | head -1 | sed 's/.*://')" || true
        [[ -n "$port" ]] && break
        sleep 0.1
    done
    [[ -n "$port" ]] || { echo "proxy-cost: $name did not start" >&2; cat "$WORK/$name.log" >&2; exit 1; }
    echo "$port"
}

cat > "$WORK/client.py" <<'PY'
import os, re, socket, sys
port, pid, warmup, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
req = b"GET /p/rows HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick   # utime + stime, seconds
sock = socket.create_connection(("127.0.0.1", port))
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
size = None
for i in range(warmup + count):
    if i == warmup: start = cpu()
    sock.sendall(req)
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk: raise SystemExit("connection closed")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk: raise SystemExit("connection closed")
        rest += chunk
    if status != 200: raise SystemExit(f"status {status}: {rest[:200]!r}")
    size = length
    buf = rest[length:]
print(f"{(cpu() - start) * 1e6 / count:.1f} {size}")
PY

measure() {  # name port pid count
    local result
    result="$(python3 "$WORK/client.py" "$2" "$3" "$WARMUP" "$4")"
    echo "$1 $result" >> "$WORK/results.txt"
    printf '%-9s %8s ms of CPU per 1k requests (%s-byte body, %s requests)\n' "$1" "${result% *}" "${result#* }" "$4"
}

UP="$(start_mock upstream --mappings "$WORK/stubs")"
DIRECT="$(start_mock direct --mappings "$WORK/stubs")"
measure direct "$DIRECT" "$(cat "$WORK/direct.pid")" "$N"
PROXIED="$(start_mock proxied --proxy-all "http://127.0.0.1:$UP" --outbound loopback)"
measure proxied "$PROXIED" "$(cat "$WORK/proxied.pid")" "$N"

if [[ -n "${WIREMOCK_JAR:-}" && -f "${WIREMOCK_JAR}" ]] && command -v java >/dev/null; then
    WM_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    mkdir -p "$WORK/wm/mappings" "$WORK/wm/__files"
    java -jar "$WIREMOCK_JAR" --port "$WM_PORT" --bind-address 127.0.0.1 --root-dir "$WORK/wm" --no-request-journal \
        --disable-banner --proxy-all "http://127.0.0.1:$UP" > "$WORK/wiremock.log" 2>&1 &
    PIDS+=($!); WM_PID=$!
    for _ in $(seq 1 600); do
        curl -fsS -o /dev/null "http://127.0.0.1:$WM_PORT/__admin/mappings" 2>/dev/null && break
        sleep 0.1
    done
    WARMUP=$((WARMUP * 5)) measure wiremock "$WM_PORT" "$WM_PID" "$WM_N"
fi

python3 - "$WORK/results.txt" <<'PY'
import sys
r = {line.split()[0]: float(line.split()[1]) for line in open(sys.argv[1])}
print(f"proxied / direct: {r['proxied'] / r['direct']:.2f}x")
if "wiremock" in r: print(f"wiremock / proxied: {r['wiremock'] / r['proxied']:.1f}x")
PY
