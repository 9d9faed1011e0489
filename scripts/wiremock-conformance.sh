#!/usr/bin/env bash
# Conformance of the stubs against the real WireMock 2.35.1: every mapping/request pair of
# Tests/WireMockConformance/corpus.json goes to both servers (status, body, the headers the
# mappings set), then PyPI's `wiremock` admin client drives both (create, list, count, find,
# clientIp, reset), then `persistent: true`, its DELETE and `POST /__admin/mappings/save` on each
# (answers and the files written to the shared mappings folder), then WireMock's own Java client
# (register, editStub, removeStub, resets, scenario state, find, serve events) against each, then
# record and playback (scripts/record-differential.py, on the same WireMock: each server records a
# loopback upstream and replays the other's recording). Installs what it needs: Debian's openjdk-17-jre-headless, and PyPI's wiremock 2.7.0
# into .venv-wiremock (its wheel ships wiremock-standalone-2.35.1.jar). Both servers listen on
# loopback only. Then, in a network namespace of its own (`unshare -n`, loopback only, so the
# proxies and webhooks real folders name reach nothing), the real WireMock folders of
# Tests/WireMockConformance/real-folders and the cases translated from WireMock's own tests
# (Tests/WireMockConformance/wiremock-tests/) go to both servers; thresholds below.
# Usage: scripts/wiremock-conformance.sh [path/to/mock-server]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/lib/python-venv.sh
source scripts/lib/mock-server.sh
bin="$(mock_server_binary "$@")"

# javac too: WireMock's own Java client is compiled against the jar (JavaClientCheck.java).
if ! command -v java > /dev/null || ! command -v javac > /dev/null; then
    SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jdk-headless > /dev/null
fi
VENV="$ROOT/.venv-wiremock"
ensure_venv "$VENV" wiremock==2.7.0 requests
JAR="$("$VENV/bin/python" -c 'import os, wiremock; print(os.path.join(os.path.dirname(wiremock.__file__), "server", "wiremock-standalone-2.35.1.jar"))')"
[[ -f "$JAR" ]] || { echo "wiremock-conformance: $JAR is missing from the wiremock wheel" >&2; exit 1; }

classes="$(mktemp -d)"
trap 'rm -rf "$classes"' EXIT
javac -d "$classes" -cp "$JAR" Tests/WireMockConformance/java/JavaClientCheck.java
timeout 200 "$VENV/bin/python" scripts/wiremock-conformance.py --mock-server "$bin" --jar "$JAR" \
    --corpus Tests/WireMockConformance/corpus.json --java-client "$classes"

# Today's figures (docs/stubs.md "Checked against WireMock"); raise them as the server improves.
MIN_REAL_SAME_PERCENT="${MIN_REAL_SAME_PERCENT:-100}"
MIN_OVERALL_SAME_PERCENT="${MIN_OVERALL_SAME_PERCENT:-98}"
MIN_LOADED_SAME_PERCENT="${MIN_LOADED_SAME_PERCENT:-100}"
MIN_WIREMOCK_TESTS_PERCENT="${MIN_WIREMOCK_TESTS_PERCENT:-99}"
# A new network namespace: as root `unshare -n`, else a user namespace too (`unshare -rn`).
isolate=(unshare -n)
if ! unshare -n true 2> /dev/null; then
    isolate=(unshare -rn)
    unshare -rn true 2> /dev/null || { echo "wiremock-conformance: cannot create a network namespace (unshare -n needs root or user namespaces)" >&2; exit 1; }
fi
# shellcheck disable=SC2016 # $@ is expanded by the inner bash
timeout 300 "${isolate[@]}" bash -c 'ip link set lo up && exec "$@"' isolated \
    "$VENV/bin/python" scripts/wiremock-conformance.py --mock-server "$bin" --jar "$JAR" --require-isolated-network \
    --real-folders Tests/WireMockConformance/real-folders --min-real-same-percent "$MIN_REAL_SAME_PERCENT" \
    --min-overall-same-percent "$MIN_OVERALL_SAME_PERCENT" --min-loaded-same-percent "$MIN_LOADED_SAME_PERCENT" \
    --wiremock-tests Tests/WireMockConformance/wiremock-tests/ --min-wiremock-tests-percent "$MIN_WIREMOCK_TESTS_PERCENT"
