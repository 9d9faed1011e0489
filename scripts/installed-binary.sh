#!/usr/bin/env bash
# Checks that an installed mock-server is "copy anywhere": on Linux it loads no library of the
# Swift toolchain (the standard library and Foundation are linked in), and started in an empty
# environment (env -i: no PATH, no HOME, no LD_LIBRARY_PATH) from / it serves /__mock/health on
# loopback and stops cleanly on SIGTERM.
# Usage: scripts/installed-binary.sh PATH/TO/mock-server
set -euo pipefail
binary="${1:?usage: scripts/installed-binary.sh PATH/TO/mock-server}"

if [[ "$(uname -s)" == "Linux" ]]; then
    if ldd "$binary" | grep -Ei 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|libicu'; then
        echo "installed-binary: $binary loads the toolchain's libraries above (build it with --static-swift-stdlib)" >&2
        exit 1
    fi
fi

out="$(mktemp)"
(cd / && exec env -i "$binary" --port 0 --log-level warning > "$out" 2>&1) &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$out"' EXIT
port=""
for _ in $(seq 1 100); do
    port="$(grep -o 'http://127.0.0.1:[0-9]*' "$out" | head -1 | sed 's/.*://')" && [[ -n "$port" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
[[ -n "$port" ]] || { echo "installed-binary: $binary did not start under env -i:" >&2; cat "$out" >&2; exit 1; }
health="$(curl -sf "http://127.0.0.1:$port/__mock/health")" \
    || { echo "installed-binary: no health answer on 127.0.0.1:$port" >&2; cat "$out" >&2; exit 1; }
grep -q '"status":"ok"' <<< "$health" || { echo "installed-binary: health answered $health" >&2; exit 1; }
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
trap 'rm -f "$out"' EXIT
[[ "$status" -eq 0 ]] || { echo "installed-binary: exit status $status after SIGTERM" >&2; cat "$out" >&2; exit 1; }
echo "installed-binary: $("$binary" --version) runs under env -i without the toolchain's libraries and serves health on 127.0.0.1:$port"
