#!/usr/bin/env bash
# Writes `mock-server --help` into README.md between <!-- help:begin --> and <!-- help:end -->,
# so the README's option list is the binary's own. scripts/smoke.sh fails when they differ.
# Usage: scripts/readme-help.sh [path/to/mock-server]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/mock-server.sh
bin="$(mock_server_binary "$@")"
help="$(mktemp)"
trap 'rm -f "$help"' EXIT
"$bin" --help > "$help"
python3 - "$help" <<'PY'
import sys
help_text = open(sys.argv[1], encoding="utf-8").read().rstrip("\n")
readme = open("README.md", encoding="utf-8").read()
begin, end = "<!-- help:begin -->", "<!-- help:end -->"
if readme.count(begin) != 1 or readme.count(end) != 1:
    sys.exit("readme-help: README.md needs exactly one " + begin + " and one " + end)
head, rest = readme.split(begin)
_, tail = rest.split(end)
open("README.md", "w", encoding="utf-8").write(head + begin + "\n```text\n" + help_text + "\n```\n" + end + tail)
PY
echo "readme-help: README.md's option list is now mock-server --help"
