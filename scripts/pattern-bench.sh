#!/usr/bin/env bash
# Logins per second of a release build with 0 and with N `urlPathPattern` mappings loaded that
# never match (the reliability review's S8 case: every request reaching the stubs pays for them).
#
#   scripts/pattern-bench.sh                  # PATTERNS=10000 DURATION=10 CONNS=64 THREADS=2
#   MOCK_BIN=/path/to/mock-server scripts/pattern-bench.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PATTERNS="${PATTERNS:-10000}"; DURATION="${DURATION:-10}"; CONNS="${CONNS:-64}"; THREADS="${THREADS:-2}"
WORK="$(mktemp -d /tmp/mock-pattern-bench.XXXXXX)"
SERVER_PID=""
cleanup() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
command -v wrk >/dev/null || { echo "pattern-bench: needs wrk (apt-get install wrk)" >&2; exit 1; }
if [[ -n "${MOCK_BIN:-}" ]]; then BIN="$MOCK_BIN"; else swift build -c release 2>&1 | tail -1; BIN="$ROOT/.build/release/mock-server"; fi

"$BIN" --port 0 --log-level warning > "$WORK/banner.txt" 2> "$WORK/server.log" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 2000); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/banner.txt" 2>/dev/null | head -1 | sed 's/.*://')" || true
    [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT/__mock/health" && break
    sleep 0.01
done
[[ -n "$PORT" ]] || { echo "pattern-bench: server did not start"; cat "$WORK/server.log"; exit 1; }
B="http://127.0.0.1:$PORT"

cat > "$WORK/login.lua" <<'LUA'
wrk.method = "POST"; wrk.path = "/auth/login"; wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"johndown@exmample.com","password":"1234567"}'
function done(summary, latency, requests)
  io.write(string.format("rps=%.0f p99_us=%d non2xx=%d\n", summary.requests / (summary.duration / 1e6), latency:percentile(99), summary.errors.status))
end
LUA
run() { wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" -s "$WORK/login.lua" "$B" 2>/dev/null | grep '^rps='; }

echo "0 patterns: $(run)"
python3 - "$PATTERNS" > "$WORK/mappings.json" <<'PY'
import json, sys
n = int(sys.argv[1])
print(json.dumps({"mappings": [{"request": {"urlPathPattern": f"/bench/p{i}/[a-z]+/\\d+"}, "response": {"body": str(i)}} for i in range(n)]}))
PY
status=$(curl -s -o "$WORK/import.txt" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary @"$WORK/mappings.json" "$B/__admin/mappings/import")
[[ "$status" == 200 ]] || { echo "pattern-bench: import answered $status: $(head -c 300 "$WORK/import.txt")"; exit 1; }
echo "$PATTERNS patterns: $(run)"
echo "RSS after: $(awk '/VmHWM/ {print $2 " kB peak"}' "/proc/$SERVER_PID/status")"
