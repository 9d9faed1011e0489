#!/usr/bin/env bash
# Benchmarks a release build of mock-server on 127.0.0.1 and prints one table:
# req/s, p99, server CPU ms per 1,000 requests and peak RSS for each workload, plus
# 10,000 idle connections (RSS, and the latency of a request on another connection)
# and the time from process start to the first answered request.
#
#   scripts/bench.sh                 # DURATION=10 CONNS=64 THREADS=2 WS_CONNS=16
#   DURATION=5 scripts/bench.sh      # shorter
#   MOCK_FLAGS="--poller poll" scripts/bench.sh         # extra server flags (after --log-level warning)
#   IDLE=1000,5000,10000 scripts/bench.sh               # idle connections, measured at each step
#   MOCK_BIN=/path/to/old/mock-server scripts/bench.sh   # another build, same workloads
#
# Workloads match the side-by-side harness of BENCHMARKS.md: GET /rows/1 with the
# `authorization` token, POST /auth/login, and LOGIN_CUSTOMER over WebSocket.
# Timing lives here, never in the tests. Every load is bounded by `timeout`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DURATION="${DURATION:-10}"; WARMUP="${WARMUP:-2}"; CONNS="${CONNS:-64}"; THREADS="${THREADS:-2}"
WS_CONNS="${WS_CONNS:-16}"; IDLE="${IDLE:-10000}"; MOCK_FLAGS="${MOCK_FLAGS:-}"
IDLE_MAX="${IDLE##*,}"
WORK="$(mktemp -d /tmp/mock-bench.XXXXXX)"
SERVER_PID=""
cleanup() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

command -v wrk >/dev/null || { echo "bench: installing wrk" >&2; apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }; }
command -v curl >/dev/null || apt-get install -y -qq curl

# MOCK_BIN=PATH benchmarks another build (an older commit's, for a before/after on one machine).
if [[ -n "${MOCK_BIN:-}" ]]; then BIN="$MOCK_BIN"; else swift build -c release 2>&1 | tail -1; BIN="$ROOT/.build/release/mock-server"; fi

# The WebSocket load client (benchmarks/wsload, no dependencies), built once into .build-wsload.
(cd "$ROOT/benchmarks/wsload" && swift build -c release --scratch-path "$ROOT/.build-wsload/build" 2>&1 | tail -1) >&2
WSLOAD="$ROOT/.build-wsload/build/release/wsload"
[[ -x "$WSLOAD" ]] || WSLOAD=""

ulimit -n $((IDLE_MAX + 4096)) 2>/dev/null || echo "bench: could not raise the open-files limit; the idle test may fall short" >&2

# --- start, and time to the first answered request ---
t0=$(date +%s%N)
# shellcheck disable=SC2086  # MOCK_FLAGS is split on purpose
"$BIN" --port 0 --log-level warning --max-connections $((IDLE_MAX + 1000)) $MOCK_FLAGS > "$WORK/banner.txt" 2> "$WORK/server.log" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 2000); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/banner.txt" 2>/dev/null | head -1 | sed 's/.*://')" || true
    [[ -n "$PORT" ]] && curl -s -o /dev/null "http://127.0.0.1:$PORT/__mock/health" && break
    sleep 0.001
done
t1=$(date +%s%N)
[[ -n "$PORT" ]] || { echo "bench: server did not start"; cat "$WORK/server.log"; exit 1; }
STARTUP_MS=$(( (t1 - t0) / 1000000 ))

TOKEN="$(curl -s -X POST -H 'Content-Type: application/json' -d '{"email":"johndown@exmample.com","password":"1234567"}' "http://127.0.0.1:$PORT/auth/login" | sed 's/.*"token":"\([^"]*\)".*/\1/')"
export TOKEN

cat > "$WORK/report.lua" <<'LUA'
function done(summary, latency, requests)
  io.write(string.format("BENCH_RESULT requests=%d rps=%.1f p50_us=%d p99_us=%d non2xx=%d errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
cat > "$WORK/rows.lua" <<LUA
dofile("$WORK/report.lua")
wrk.method = "GET"; wrk.path = "/rows/1"; wrk.headers["authorization"] = os.getenv("TOKEN")
LUA
cat > "$WORK/login.lua" <<LUA
dofile("$WORK/report.lua")
wrk.method = "POST"; wrk.path = "/auth/login"; wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"johndown@exmample.com","password":"1234567"}'
LUA

cpu_ticks() { sed 's/^.*) //' "/proc/$SERVER_PID/stat" | awk '{print $12 + $13}'; }
CLK=$(getconf CLK_TCK)
field() { sed -n "s/.*BENCH_RESULT.* $1=\([^ ]*\).*/\1/p" "$2" | tail -1; }
ROWS=()

run_http() {  # name lua
    timeout $((WARMUP + 10)) wrk -t"$THREADS" -c"$CONNS" -d"${WARMUP}s" -s "$WORK/$2.lua" "http://127.0.0.1:$PORT" > /dev/null
    local c0; c0=$(cpu_ticks)
    timeout $((DURATION + 20)) wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency -s "$WORK/$2.lua" "http://127.0.0.1:$PORT" > "$WORK/$2.out"
    local c1; c1=$(cpu_ticks)
    local req; req=$(field requests "$WORK/$2.out")
    local cpu1k; cpu1k=$(awk -v t=$((c1 - c0)) -v clk="$CLK" -v r="$req" 'BEGIN { printf "%.1f", t * 1000.0 / clk * 1000.0 / r }')
    ROWS+=("$(printf '%-28s %10s %9s %12s %8s' "$1" "$(field rps "$WORK/$2.out")" "$(awk -v u="$(field p99_us "$WORK/$2.out")" 'BEGIN{printf "%.2f", u/1000}')" "$cpu1k" "$(( $(field non2xx "$WORK/$2.out") + $(field errors "$WORK/$2.out") ))")")
}

run_http "GET /rows/1 (c=$CONNS)" rows
run_http "POST /auth/login (c=$CONNS)" login

if [[ -n "$WSLOAD" && -x "$WSLOAD" ]]; then
    timeout $((WARMUP + 30)) "$WSLOAD" --port "$PORT" --connections "$WS_CONNS" --duration "$WARMUP" --warmup 0 > /dev/null 2>&1 || true
    c0=$(cpu_ticks)
    timeout $((DURATION + 40)) "$WSLOAD" --port "$PORT" --connections "$WS_CONNS" --duration "$DURATION" --warmup 0 > "$WORK/ws.out" 2>&1 || true
    c1=$(cpu_ticks)
    msgs=$(sed -n 's/.*BENCH_RESULT.* requests=\([0-9]*\).*/\1/p' "$WORK/ws.out" | tail -1)
    rps=$(sed -n 's/.*BENCH_RESULT.* rps=\([0-9.]*\).*/\1/p' "$WORK/ws.out" | tail -1)
    p99=$(sed -n 's/.*BENCH_RESULT.* p99_us=\([0-9]*\).*/\1/p' "$WORK/ws.out" | tail -1)
    errs=$(sed -n 's/.*BENCH_RESULT.* errors=\([0-9]*\).*/\1/p' "$WORK/ws.out" | tail -1)
    cpu1k=$(awk -v t=$((c1 - c0)) -v clk="$CLK" -v r="${msgs:-0}" 'BEGIN { if (r > 0) printf "%.1f", t * 1000.0 / clk * 1000.0 / r; else print "NA" }')
    ROWS+=("$(printf '%-28s %10s %9s %12s %8s' "WS LOGIN_CUSTOMER ($WS_CONNS conns)" "${rps:-NA}" "$(awk -v u="${p99:-0}" 'BEGIN{printf "%.2f", u/1000}')" "$cpu1k" "${errs:-NA}")")
else
    ROWS+=("$(printf '%-28s %10s' "WS LOGIN_CUSTOMER" "skipped (benchmarks/wsload did not build)")")
fi
PEAK_KB=$(awk '/^VmHWM:/ {print $2}' "/proc/$SERVER_PID/status")

# --- idle connections: hold IDLE sockets open (each step of a comma list in turn), then time
# requests on a fresh connection, and a short wrk load (rows) on other connections beside them ---
python3 - "$PORT" "$IDLE" "$SERVER_PID" "$WORK/rows.lua" "$CLK" > "$WORK/idle.out" <<'PY'
import resource, socket, subprocess, sys, time, re
port, steps, pid, lua, clk = int(sys.argv[1]), [int(x) for x in sys.argv[2].split(",")], sys.argv[3], sys.argv[4], int(sys.argv[5])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(steps) + 2048), hard))
def ticks():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])
socks = []
for n in steps:
    while len(socks) < n:
        s = socket.socket(); s.connect(("127.0.0.1", port)); socks.append(s)
    # One request on each of a few held connections proves they were accepted, not just queued.
    for s in socks[:: max(1, n // 20)]:
        s.sendall(b"GET /__mock/health HTTP/1.1\r\nHost: x\r\n\r\n"); s.recv(4096)
    lat = []
    for _ in range(50):
        t = time.perf_counter()
        c = socket.create_connection(("127.0.0.1", port)); c.sendall(b"GET /__mock/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        while c.recv(4096): pass
        c.close(); lat.append((time.perf_counter() - t) * 1000)
    rss = [l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:")][0]
    lat.sort()
    c0 = ticks()
    out = subprocess.run(["timeout", "30", "wrk", "-t2", "-c64", "-d3s", "-s", lua, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True).stdout
    c1 = ticks()
    m = re.search(r"requests=(\d+) rps=([\d.]+) p50_us=(\d+) p99_us=(\d+)", out)
    req, rps, p99 = (int(m.group(1)), float(m.group(2)), int(m.group(4)) / 1000) if m else (0, 0.0, 0.0)
    cpu = (c1 - c0) * 1000.0 / clk * 1000.0 / req if req else float("nan")
    print(f"IDLE n={n} rss_kb={rss} p50_ms={lat[len(lat)//2]:.2f} max_ms={lat[-1]:.2f} rows_rps={rps:.0f} rows_p99_ms={p99:.2f} rows_cpu_1k={cpu:.1f}")
for s in socks: s.close()
PY

echo
echo "mock-server benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, wrk -t$THREADS -c$CONNS -d${DURATION}s${MOCK_FLAGS:+, server flags: $MOCK_FLAGS}"
printf '%-28s %10s %9s %12s %8s\n' "workload" "req/s" "p99 ms" "CPU ms/1k" "errors"
for r in "${ROWS[@]}"; do echo "$r"; done
echo "peak RSS through the workloads: $((PEAK_KB / 1024)) MiB"
sed 's/IDLE n=\([0-9]*\) rss_kb=\([0-9]*\) p50_ms=\([0-9.]*\) max_ms=\([0-9.]*\) rows_rps=\([0-9]*\) rows_p99_ms=\([0-9.]*\) rows_cpu_1k=\([0-9.a-z]*\)/idle connections: \1 held, RSS \2 KiB, request on another connection p50 \3 ms, max \4 ms; beside them rows c=64 \5 req\/s, p99 \6 ms, \7 CPU ms\/1k/' "$WORK/idle.out"
echo "start to first answered request: ${STARTUP_MS} ms"
