#!/usr/bin/env bash
# Runs README.md's examples exactly as written against a fresh mock-server, and fails on any
# surprise. The examples are the ```sh blocks between <!-- smoke:begin --> and <!-- smoke:end -->;
# they run in order in one bash with `set -euo pipefail`, the server on a free port (its port
# replaces 8080 in every URL of the blocks). It also checks that the README's option list is
# `mock-server --help` (scripts/readme-help.sh regenerates it) and that the server's log has a
# line per request. Usage: scripts/smoke.sh [path/to/mock-server]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source scripts/lib/mock-server.sh
bin="$(mock_server_binary "$@")"

work="$(mktemp -d)"

# The README's option list is the binary's --help, word for word.
"$bin" --help > "$work/help"
sed -n '/<!-- help:begin -->/,/<!-- help:end -->/p' README.md | sed -e '1,2d' -e '$d' | sed -e '$d' > "$work/readme-help"
if ! diff -u "$work/readme-help" "$work/help" > "$work/help.diff"; then
    cat "$work/help.diff" >&2
    echo "smoke: README.md's option list differs from mock-server --help (above); run scripts/readme-help.sh" >&2
    rm -rf "$work"
    exit 1
fi
pid=""
cleanup() {
    if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Started from an empty directory: the README promises the bundled seed.
(cd "$work" && exec "$bin" --port 0 --log-level info) > "$work/banner" 2> "$work/log" &
pid=$!
port=""
for _ in $(seq 1 200); do
    port="$(sed -nE 's#.*listening on http://127\.0\.0\.1:([0-9]+).*#\1#p' "$work/banner" | head -1)"
    [[ -n "$port" ]] && break
    kill -0 "$pid" 2>/dev/null || { echo "smoke: mock-server exited:" >&2; cat "$work/log" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$port" ]] || { echo "smoke: no banner within 10 s" >&2; exit 1; }

# The marked ```sh blocks, in order.
awk '
    /<!-- smoke:begin -->/ { on = 1; next }
    /<!-- smoke:end -->/ { on = 0; next }
    on && /^```sh$/ { inblock = 1; print "# ---- block " ++n; next }
    inblock && /^```$/ { inblock = 0; next }
    inblock { print }
' README.md > "$work/blocks.sh"
blocks="$(grep -c '^# ---- block' "$work/blocks.sh" || true)"
[[ "$blocks" -ge 5 ]] || { echo "smoke: found only $blocks marked blocks in README.md" >&2; exit 1; }
{
    echo 'set -euo pipefail'
    sed -e "s#127\.0\.0\.1:8080#127.0.0.1:${port}#g" "$work/blocks.sh"
} > "$work/run.sh"

echo "smoke: running $blocks README blocks against mock-server on port $port"
if ! bash "$work/run.sh" > "$work/out" 2>&1; then
    cat "$work/out"
    echo "smoke: a README example failed (output above; server log below)" >&2
    cat "$work/log" >&2
    exit 1
fi
cat "$work/out"
kill -0 "$pid" 2>/dev/null || { echo "smoke: the server died during the run" >&2; cat "$work/log" >&2; exit 1; }
# At the default level every request has its log line (method, path, status, duration, system).
for line in 'POST /api/users/register 200 [0-9.]+ms musbooking' 'GET /rows/1 403 [0-9.]+ms rows hint: ' \
            'POST /api/auth/login 503 [0-9.]+ms musbooking'; do
    grep -qE "$line" "$work/log" || { cat "$work/log" >&2; echo "smoke: no log line matching \"$line\" (log above)" >&2; exit 1; }
done
echo "smoke: all README examples passed"
