#!/usr/bin/env bash
# Runs README.md's examples exactly as written against a fresh mock-server, and fails on any
# surprise. The examples are the ```sh blocks between <!-- smoke:begin --> and <!-- smoke:end -->
# (README.md's, then docs/control-plane.md's recipes);
# they run in order, pasted into one bash and then into one interactive zsh without rc files (as
# on a stock Mac, where `#` is not a comment), each with `set -euo pipefail`, the server on a
# free port (its port replaces 8080 in every URL of the blocks). It also checks that the README's option list is
# `mock-server --help` (scripts/readme-help.sh regenerates it) and that the server's log has a
# line per request. The recording example's backend (127.0.0.1:8081) is a file server on loopback
# started here. Usage: scripts/smoke.sh [path/to/mock-server]
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
backend_pid=""
cleanup() {
    if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    if [[ -n "$backend_pid" ]]; then kill "$backend_pid" 2>/dev/null || true; wait "$backend_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Started from an empty directory: the README promises the bundled seed. The banner file exists
# before the server starts: the subshell opens its redirection after the fork, and the loop below
# may read first.
: > "$work/banner"
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
' README.md docs/control-plane.md > "$work/blocks.sh"
blocks="$(grep -c '^# ---- block' "$work/blocks.sh" || true)"
[[ "$blocks" -ge 5 ]] || { echo "smoke: found only $blocks marked blocks in README.md" >&2; exit 1; }
# The blocks hold no comments: pasted into zsh (the Mac's shell), `#` is a word, not a comment.
if grep -nE '^[[:space:]]*#|[[:space:]]#([[:space:]]|$)' "$work/blocks.sh" | grep -v ':# ---- block'; then
    echo "smoke: a README block has a # comment (above), which zsh runs as a command when pasted" >&2
    exit 1
fi
# The recording example's backend (127.0.0.1:8081 in the README): a file server on loopback
# this script starts, on a free port.
mkdir -p "$work/backend/catalog"
echo '{"items": ["A-1", "B-2"]}' > "$work/backend/catalog/items"
: > "$work/backend.log"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work/backend" > "$work/backend.log" 2>&1 &
backend_pid=$!
backend_port=""
for _ in $(seq 1 200); do
    backend_port="$(sed -nE 's#.* port ([0-9]+) .*#\1#p' "$work/backend.log" | head -1)"
    [[ -n "$backend_port" ]] && break
    sleep 0.05
done
[[ -n "$backend_port" ]] || { echo "smoke: the example backend did not start" >&2; cat "$work/backend.log" >&2; exit 1; }
sed -e "s#127\.0\.0\.1:8080#127.0.0.1:${port}#g" -e "s#127\.0\.0\.1:8081#127.0.0.1:${backend_port}#g" -e '/^# ---- block/d' \
    "$work/blocks.sh" > "$work/pasted.sh"

# Each block runs as pasted into bash, then into zsh as a stock Mac has it: interactive, no rc
# files, so no `interactivecomments` (each pass starts with the README's own reset).
# MOCK_SMOKE_SHELLS narrows the list (CI installs zsh; a machine without it can say "bash").
for shell in ${MOCK_SMOKE_SHELLS:-bash zsh}; do
    case "$shell" in
        bash) run=(bash) ;;
        zsh) command -v zsh > /dev/null || { echo "smoke: zsh is not installed (apt-get install zsh, or MOCK_SMOKE_SHELLS=bash)" >&2; exit 1; }
             run=(env PS1= PS2= PROMPT_EOL_MARK= zsh -f -i) ;;
        *) echo "smoke: unknown shell $shell" >&2; exit 1 ;;
    esac
    { echo 'set -euo pipefail'; cat "$work/pasted.sh"; echo 'echo "smoke: end of the blocks"'; } > "$work/run-$shell.sh"
    echo "smoke: pasting $blocks README blocks into $shell against mock-server on port $port"
    "${run[@]}" < "$work/run-$shell.sh" 2>&1 | tr -d '\r' > "$work/out" || true
    # An interactive zsh's exit status does not tell whether a block failed: its output does.
    if ! grep -qx "smoke: end of the blocks" "$work/out" || grep -qE "zsh: |command not found|no matches found" "$work/out"; then
        cat "$work/out"
        echo "smoke: a README example failed in $shell (output above; server log below)" >&2
        cat "$work/log" >&2
        exit 1
    fi
    cat "$work/out"
done
kill -0 "$pid" 2>/dev/null || { echo "smoke: the server died during the run" >&2; cat "$work/log" >&2; exit 1; }
# At the default level every request has its log line (method, path, status, duration, system).
for line in 'POST /api/users/register 200 [0-9.]+(µs|ms) musbooking' 'GET /rows/1 403 [0-9.]+(µs|ms) rows hint: ' \
            'POST /api/auth/login 503 [0-9.]+(µs|ms) musbooking'; do
    grep -qE "$line" "$work/log" || { cat "$work/log" >&2; echo "smoke: no log line matching \"$line\" (log above)" >&2; exit 1; }
done
echo "smoke: all README examples passed"
