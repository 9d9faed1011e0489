#!/usr/bin/env bash
# Fuzzes a fresh mock-server against its own OpenAPI document (/__mock/openapi.json) with
# schemathesis: every check except positive_data_acceptance (musbooking answers business errors
# with 400), all phases, a bounded example count. POST /__mock/faults is left out: a fuzzed fault
# breaks later requests by design; so is POST /__mock/instances, whose 503 past --max-instances
# is by design too (tests cover it); and so are the operations that add stubs (/__admin/mappings
# POST, its older /new, PUT and import): a fuzzed mapping without a URL answers every later request (the stubs
# are checked against WireMock itself by scripts/wiremock-conformance.sh). POST
# /__admin/mappings/reset is left out too: its path is also /__admin/mappings/{id} with the id
# "reset" (as in WireMock), so OPTIONS lists that route's GET, PUT and DELETE, which the check on
# Allow counts as undocumented. Every request carries `X-Mock-Admin: 1`, so the admin
# guard lets state-changing admin operations through and they are fuzzed too; waits are bounded
# to 200 ms (--max-wait-ms) so a fuzzed waitMs does not hold the run. scripts/schemathesis.toml
# holds the per-operation exceptions, each with its reason. Installs schemathesis
# into .venv-schemathesis; CI runs this. SCHEMATHESIS_SEED (default 1) picks the generated cases,
# SCHEMATHESIS_EXAMPLES (default 25) how many per operation.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv-schemathesis"
source scripts/lib/python-venv.sh
ensure_venv "$VENV" schemathesis
source scripts/lib/mock-server.sh
start_mock_server schemathesis --max-wait-ms 200 --max-instances 4

"$VENV/bin/schemathesis" --no-color --config-file "$ROOT/scripts/schemathesis.toml" run "http://127.0.0.1:$PORT/__mock/openapi.json" \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-25}" --seed "${SCHEMATHESIS_SEED:-1}" \
    --exclude-name 'POST /__mock/faults' --exclude-name 'POST /__mock/instances' \
    --exclude-name 'POST /__admin/mappings' --exclude-name 'POST /__admin/mappings/new' --exclude-name 'PUT /__admin/mappings/{id}' \
    --exclude-name 'POST /__admin/mappings/import' --exclude-name 'POST /__admin/mappings/import-har' \
    --exclude-name 'POST /__admin/mappings/reset' \
    --header 'X-Mock-Admin: 1' \
    --generation-database none --request-timeout 10
