#!/usr/bin/env bash
# The server leaves full Foundation and ICU out on Linux (its targets import FoundationEssentials
# where it exists): about 6.5 MiB less resident memory. Starts the binary on port 0 and fails if
# libFoundation, FoundationInternationalization or an ICU library is mapped; prints its RSS.
#
#   scripts/no-icu.sh [BINARY]       # default .build/debug/mock-server
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="${1:-.build/debug/mock-server}"
if [[ ! -d /proc/self ]]; then echo "no-icu: no /proc here (Darwin links Foundation by design); skipped"; exit 0; fi
work="$(mktemp -d)"
pid=""
cleanup() { [[ -n "$pid" ]] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$BIN" --port 0 --log-level warning > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 100); do grep -q "listening on http://" "$work/out" 2>/dev/null && break; sleep 0.1; done
grep -q "listening on http://" "$work/out" || { echo "no-icu: $BIN printed no banner in 10 s" >&2; cat "$work/err" >&2; exit 1; }
libraries="$(awk '$6 ~ /\.so/ { n = split($6, p, "/"); print p[n] }' "/proc/$pid/maps" | sort -u)"
rss="$(awk '/^VmRSS|^RssAnon|^RssFile/ { printf "%s %s kB  ", $1, $2 }' "/proc/$pid/status")"
echo "no-icu: $BIN at start: $rss"
if bad="$(grep -E '^(libFoundation\.so|libFoundationInternationalization|lib_FoundationICU|libicu)' <<< "$libraries")"; then
    echo "no-icu: the server maps full Foundation or ICU:" >&2
    echo "$bad" >&2
    echo "no-icu: a file in Sources/HTTPServer, Routes or MockServer (or a module they use) imports Foundation without the #if canImport(FoundationEssentials) guard" >&2
    exit 1
fi
echo "no-icu: ok, mapped: $(tr '\n' ' ' <<< "$libraries")"
