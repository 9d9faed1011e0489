#!/usr/bin/env bash
# Fuzzes a fresh mock-server against its own OpenAPI document (/__mock/openapi.json) with
# schemathesis: every check except positive_data_acceptance (musbooking answers business errors
# with 400), all phases, a bounded example count. POST /__mock/faults is left out: a fuzzed fault
# breaks later requests by design. Installs schemathesis into .venv-schemathesis; CI runs this.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv-schemathesis"
source scripts/lib/python-venv.sh
ensure_venv "$VENV" schemathesis
swift build 2>&1 | tail -1
OUT="$(mktemp)"
"$ROOT/.build/debug/mock-server" --port 0 --log-level warning > "$OUT" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -f "$OUT"' EXIT
PORT=""
for _ in $(seq 1 100); do
    PORT="$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT" | head -1 | sed 's/.*://')" && [[ -n "$PORT" ]] && break
    sleep 0.05
done
[[ -n "$PORT" ]] || { echo "schemathesis: server did not start"; cat "$OUT"; exit 1; }

"$VENV/bin/schemathesis" --no-color run "http://127.0.0.1:$PORT/__mock/openapi.json" \
    --checks all --exclude-checks positive_data_acceptance \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" --seed 1 \
    --exclude-name 'POST /__mock/faults' \
    --generation-database none --request-timeout 10
