# Sourced by the scripts that run mock-server (python-clients.sh, console-test.sh, schemathesis.sh,
# smoke.sh, readme-help.sh).

# mock_server_binary [PATH]: prints PATH when given, else builds and prints the debug binary's
# path (the build's output goes to standard error; a failed build fails the call).
mock_server_binary() {
    if [[ $# -ge 1 ]]; then
        echo "$1"
    else
        swift build --product mock-server >&2 || return 1
        echo "$(swift build --show-bin-path)/mock-server"
    fi
}

# start_mock_server NAME [FLAG…]: builds the debug binary, starts it on a free port with
# `--log-level warning` and FLAG…, and sets PORT from its banner (waiting at most 5 s). The server
# is stopped when the script exits; NAME prefixes the failure message.
start_mock_server() {
    local name="$1"; shift
    swift build 2>&1 | tail -1
    MOCK_SERVER_OUT="$(mktemp)"
    "$(swift build --show-bin-path)/mock-server" --port 0 --log-level warning "$@" > "$MOCK_SERVER_OUT" 2>&1 &
    MOCK_SERVER_PID=$!
    trap 'kill -TERM $MOCK_SERVER_PID 2>/dev/null; wait $MOCK_SERVER_PID 2>/dev/null; rm -f "$MOCK_SERVER_OUT"' EXIT
    PORT=""
    for _ in $(seq 1 100); do
        PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$MOCK_SERVER_OUT" | head -1 | sed 's/.*://')" && [[ -n "$PORT" ]] && break
        sleep 0.05
    done
    [[ -n "$PORT" ]] || { echo "$name: server did not start"; cat "$MOCK_SERVER_OUT"; exit 1; }
}
