#!/usr/bin/env bash
# docs/adding-a-system.md, followed as written on a scratch copy of the repository: its code blocks
# must be the files here (byte for byte), and the sixth system they make must build on the kit
# alone, declare nothing public, pass its tests (the PIN hidden in the journal included) and keep the OpenAPI, seed and
# declaration tests green. Run by .ci/run; nothing here touches the checkout it runs from.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$(mktemp -d /tmp/adding-a-system.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

echo "== the guide's code blocks are the example's files"
python3 - "$ROOT/docs/adding-a-system.md" "$HERE" <<'PY'
import re, sys, pathlib
guide, here = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
files = {"PinLogin.swift": here / "PinLogin/PinLogin.swift", "PinLogin+OpenAPI.swift": here / "PinLogin/PinLogin+OpenAPI.swift",
         "PinLogin+Secrets.swift": here / "PinLogin/PinLogin+Secrets.swift", "PinLoginTests.swift": here / "Tests/PinLoginTests.swift"}
seen = set()
for heading, block in re.findall(r"^## [^\n]*`[^`\n]*?([\w+]+\.swift)`[^\n]*\n.*?```swift\n(.*?)```", guide, re.S | re.M):
    if heading in files:
        seen.add(heading)
        if block != files[heading].read_text():
            sys.exit(f"adding-a-system: the guide's {heading} differs from Examples/AddingASystem ({files[heading]})")
missing = set(files) - seen
if missing:
    sys.exit(f"adding-a-system: the guide has no code block for {', '.join(sorted(missing))}")
PY

echo "== the steps on a scratch copy ($WORK)"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$WORK"
cd "$WORK"
mkdir -p Sources/Routes/PinLogin
cp "$HERE"/PinLogin/*.swift Sources/Routes/PinLogin/
mkdir -p Tests/RoutesTests/PinLogin
cp "$HERE/Tests/PinLoginTests.swift" Tests/RoutesTests/PinLogin/
python3 - <<'PY'
import pathlib, re
def edit(path, old, new):
    p = pathlib.Path(path); text = p.read_text()
    if old not in text: raise SystemExit(f"adding-a-system: {path} no longer has {old!r}; update the guide")
    p.write_text(text.replace(old, new, 1))
# Package.swift: the system's target, in the list of systems (the guide's step 3).
edit("Package.swift", '"RSSchoolSystem"]', '"RSSchoolSystem", "PinLoginSystem"]')
edit("Package.swift", '        .target(name: "RSSchoolSystem"',
     '        .target(name: "PinLoginSystem", dependencies: ["EmulationKit", "HTTPServer"], path: "Sources/Routes/PinLogin"),\n        .target(name: "RSSchoolSystem"')
# The registry (step 4).
edit("Sources/Routes/Composition/SystemRegistry.swift", "import RowsSystem", "import PinLoginSystem\nimport RowsSystem")
edit("Sources/Routes/Composition/SystemRegistry.swift", "RSSchool.self,", "RSSchool.self, PinLogin.self,")
# The seed section (step 5).
edit("seed.json", "{", '{\n  "pin": { "pin": "1234", "name": "Pin Person" },')
PY
bash scripts/embed-seed.sh > /dev/null
swift build --target PinLoginSystem --explicit-target-dependency-import-check error 2>&1 | tail -1
# The guide's system declares nothing public, as every target but the products (README, "Layout").
bash scripts/access-levels.sh
swift build --build-tests 2>&1 | grep -E "error|warning: |Compiling PinLogin" | grep -v "^warning: 'main'" || true
swift test --skip-build --filter 'PinLoginTests|OpenAPIDocumentTests|BundledSeedTests|SystemDeclarationTests' 2>&1 \
    | tee "$WORK/test.log" | grep -E "error:|Executed [0-9]+ tests" || true
grep -qE "Executed [1-9][0-9]* tests?, with 0 failures" "$WORK/test.log" \
    || { echo "adding-a-system: the guide's system does not pass (above)" >&2; exit 1; }
