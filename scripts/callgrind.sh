#!/usr/bin/env bash
# Instructions per request on the three hot paths, counted by valgrind's callgrind: repeatable to
# within a few instructions, unlike wall time on a shared machine.
#
#   scripts/callgrind.sh [BINARY] [server flags...]
#   scripts/callgrind.sh .build/release/mock-server --log-level warning --journal-size 0
#
# The server runs once under callgrind with one event loop (`--event-loops 1`) and deterministic
# hashing. For each workload (GET /rows/1, POST /auth/login, LOGIN_CUSTOMER over the gateway
# WebSocket) a client opens one keep-alive connection, sends BASE requests as a warm-up, zeroes
# the counters (`callgrind_control -z`), sends N more and dumps (`callgrind_control -d`): the dump's
# total divided by N is the cost of one request in steady state, every thread counted (the log
# writer included). Requests go one at a time from a Python client (not under valgrind), byte for
# byte what wrk and benchmarks/wsload send. KEEP=DIR keeps the dumps (for callgrind_annotate).
# FAULT='{"system":"gateway","path":"LOGIN_CUSTOMER","action":{…}}' posts that fault rule before
# the workloads (the message-rule path; a rule answering a message must not say "error").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/.build/release/mock-server}"; shift || true
N="${N:-2000}"; BASE="${BASE:-300}"; WORKLOADS="${WORKLOADS:-rows login ws}"
WORK="$(mktemp -d /tmp/mock-callgrind.XXXXXX)"
SERVER_PID=""
cleanup() { [[ -n "$SERVER_PID" ]] && kill -KILL "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
command -v valgrind >/dev/null || { echo "callgrind: valgrind is not installed" >&2; exit 1; }

cat > "$WORK/client.py" <<'PY'
import base64, os, re, socket, sys
import subprocess
port, workload, base, count, pid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def control(flag):
    subprocess.run(["callgrind_control", flag, pid], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
host = f"127.0.0.1:{port}"
LOGIN_BODY = b'{"email":"johndown@exmample.com","password":"1234567"}'

def http_exchange(sock, request, buf):
    sock.sendall(request)
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk: raise SystemExit("connection closed")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk: raise SystemExit("connection closed")
        rest += chunk
    status = int(head.split(b" ", 2)[1])
    return status, rest[:length], rest[length:]

def login_request():
    req = (b"POST /auth/login HTTP/1.1\r\nHost: " + host.encode() +
           b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(LOGIN_BODY)).encode() + b"\r\n\r\n" + LOGIN_BODY)
    return req

sock = socket.create_connection(("127.0.0.1", port))
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
if workload in ("rows", "login"):
    status, body, buf = http_exchange(sock, login_request(), buf)
    assert status == 200, (status, body)
    token = re.search(rb'"token":"([^"]*)"', body).group(1)
    if workload == "rows":
        req = b"GET /rows/1 HTTP/1.1\r\nHost: " + host.encode() + b"\r\nauthorization: " + token + b"\r\n\r\n"
    else:
        req = login_request()
    for i in range(base + count):
        if i == base: control("-z")
        status, body, buf = http_exchange(sock, req, buf)
        if status != 200: raise SystemExit(f"status {status}: {body[:200]!r}")
    control("-d")
else:
    key = base64.b64encode(os.urandom(16))
    sock.sendall(b"GET /customer-gateway/customer HTTP/1.1\r\nHost: " + host.encode() +
                 b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
                 b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    while b"\r\n\r\n" not in buf: buf += sock.recv(65536)
    head, _, buf = buf.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    mask = b"\x11\x22\x33\x44"
    for i in range(base + count):
        if i == base: control("-z")
        text = b'{"type":"LOGIN_CUSTOMER","sequence_id":"0-%06d","data":{"email":"fpi@bk.ru","password":"123123"}}' % i
        frame = bytes([0x81, 0x80 | len(text)]) + mask + bytes(b ^ mask[j & 3] for j, b in enumerate(text))
        sock.sendall(frame)
        while True:
            if len(buf) >= 2:
                length, header = buf[1] & 0x7f, 2
                if length == 126: length, header = (int.from_bytes(buf[2:4], "big"), 4) if len(buf) >= 4 else (1 << 30, 4)
                if len(buf) >= header + length:
                    if b'"error"' in buf[header:header + length] and b"LOGIN_CUSTOMER" not in buf[header:header + length]:
                        raise SystemExit(buf[header:header + length])
                    buf = buf[header + length:]
                    break
            chunk = sock.recv(65536)
            if not chunk: raise SystemExit("connection closed")
            buf += chunk
    control("-d")
sock.close()
PY

FLAGS=("$@")
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --compress-strings=no --compress-pos=no --callgrind-out-file="$WORK/cg.out" \
    "$BIN" --port 0 --event-loops 1 "${FLAGS[@]}" > "$WORK/banner.txt" 2> "$WORK/server.log" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 1200); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/banner.txt" 2>/dev/null | head -1 | sed 's/.*://')" || true
    [[ -n "$PORT" ]] && break
    sleep 0.1
done
[[ -n "$PORT" ]] || { echo "callgrind: server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
if [[ -n "${FAULT:-}" ]]; then
    python3 - "$PORT" "$FAULT" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
c.request("POST", "/__mock/faults", body=sys.argv[2].encode(), headers={"Content-Type": "application/json", "X-Mock-Admin": "1"})
r = c.getresponse()
body = r.read()
if r.status != 201 and r.status != 200: raise SystemExit(f"callgrind: the fault was refused: {r.status} {body!r}")
PY
fi
dump=0
for w in $WORKLOADS; do
    python3 "$WORK/client.py" "$PORT" "$w" "$BASE" "$N" "$SERVER_PID"
    dump=$((dump + 1))
    total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$WORK/cg.out.$dump")
    printf '%-6s %8.0f instructions per request   (%s over %s)\n' "$w" "$(awk -v t="$total" -v n="$N" 'BEGIN{print t / n}')" "$total" "$N"
    if [[ -n "${KEEP:-}" ]]; then mkdir -p "$KEEP"; cp "$WORK/cg.out.$dump" "$KEEP/$w.out"; fi
done
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
