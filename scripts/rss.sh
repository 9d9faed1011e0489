#!/usr/bin/env bash
# Resident memory of release builds side by side (BENCHMARKS.md): for each binary, RUNS times,
# interleaved, the server starts on loopback (`--port 0`, no proxy, no stubs), VmRSS is read once
# its banner is out and the process has been idle IDLE seconds (with RssAnon and RssFile, the
# private and the file-backed part), then, with a token from a login, wrk sends `GET /rows/1` and
# `POST /auth/login` (../shared/bench/lua) at c=64 for DURATION seconds each and VmHWM (the peak)
# is read. Loopback only; each server is killed by its own pid.
#
#   scripts/rss.sh BIN [BIN...]          RUNS=3 IDLE=1 DURATION=5
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LUA="${LUA:-$ROOT/../shared/bench/lua}"
RUNS="${RUNS:-3}"; IDLE="${IDLE:-1}"; DURATION="${DURATION:-5}"
[[ $# -ge 1 ]] || { sed -n '2,8p' "$0"; exit 2; }
command -v wrk >/dev/null || { echo "rss: wrk is not installed" >&2; exit 2; }
[[ -f "$LUA/rows.lua" && -f "$LUA/login.lua" ]] || { echo "rss: no wrk scripts in $LUA (set LUA)" >&2; exit 2; }
WORK="$(mktemp -d /tmp/mock-rss.XXXXXX)"
PID=""
cleanup() { [[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$PID/status"; }

for run in $(seq "$RUNS"); do
  for bin in "$@"; do
    "$bin" --port 0 --log-level warning > "$WORK/out" 2>&1 &
    PID=$!
    port=""
    for _ in $(seq 200); do
      port="$(grep -o '127\.0\.0\.1:[0-9]*' "$WORK/out" | head -1 | cut -d: -f2 || true)"
      [[ -n "$port" ]] && break
      kill -0 "$PID" 2>/dev/null || { cat "$WORK/out" >&2; exit 1; }
      sleep 0.05
    done
    [[ -n "$port" ]] || { echo "rss: $bin printed no port" >&2; exit 1; }
    sleep "$IDLE"
    start="$(kib VmRSS)"; anon="$(kib RssAnon)"; file="$(kib RssFile)"
    login="$(curl -s --max-time 5 -X POST -H 'Content-Type: application/json' -d '{"email":"johndown@exmample.com","password":"1234567"}' "http://127.0.0.1:$port/auth/login")"
    TOKEN="$(printf '%s' "$login" | sed -n 's/.*"token" *: *"\([^"]*\)".*/\1/p')"
    [[ -n "$TOKEN" ]] || { echo "rss: no token from $bin: ${login:0:200}" >&2; exit 1; }
    export TOKEN
    for script in rows login; do
      wrk -t2 -c64 -d"${DURATION}s" -s "$LUA/$script.lua" "http://127.0.0.1:$port" > "$WORK/wrk" 2>&1 || { cat "$WORK/wrk" >&2; exit 1; }
    done
    peak="$(kib VmHWM)"
    awk -v b="$bin" -v r="$run" -v s="$start" -v a="$anon" -v f="$file" -v p="$peak" 'BEGIN {
      printf "%s\trun %d\tstart VmRSS %.1f MiB (anonymous %.1f, file-backed %.1f)\tpeak VmHWM %.1f MiB\n", b, r, s / 1024, a / 1024, f / 1024, p / 1024 }'
    kill "$PID"; wait "$PID" 2>/dev/null || true
    PID=""
  done
done
