#!/usr/bin/env bash
# Builds the DocC catalogs of the two libraries and of MockAdminWire, the wire types the admin
# client re-exports (Sources/<Target>/<Target>.docc), with the
# toolchain's docc, from symbol graphs the compiler emits. Fails on any docc warning (a symbol
# link that resolves to nothing, a topic that names a missing symbol) and on a public symbol
# without a doc comment. The archives land in .build-docc/<Target>.doccarchive (open one in Xcode).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The toolchain's docc: on PATH, beside swift (Linux toolchains), or through xcrun (Xcode).
if command -v docc > /dev/null; then DOCC=(docc)
elif [[ -x "$(dirname "$(readlink -f "$(command -v swift)")")/docc" ]]; then DOCC=("$(dirname "$(readlink -f "$(command -v swift)")")/docc")
elif command -v xcrun > /dev/null; then DOCC=(xcrun docc)
else echo "docc.sh: no docc found (it ships with Swift toolchains and Xcode)" >&2; exit 1
fi

scratch="$ROOT/.build-docc"
# Its own build folder (the flags would otherwise rebuild .build); the graphs are extracted afresh
# from the built modules every run, so an edited doc comment is never read from a stale graph.
find "$scratch" -type d -name symbolgraph -prune -exec rm -rf {} + 2> /dev/null || true
# It builds the package, then extracts a graph per module; on Linux it also tries the generated
# test-runner modules, fails on those and exits non-zero, so what counts is that the graphs of
# the three modules are there (its output is shown when they are not).
dump_log="$(mktemp)"
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public > "$dump_log" 2>&1 || true
graphs="$(find "$scratch" -type d -name symbolgraph | head -1)"
if [[ -z "$graphs" || ! -f "$graphs/MockServerKit.symbols.json" || ! -f "$graphs/MockServerAdminClient.symbols.json" || ! -f "$graphs/MockAdminWire.symbols.json" ]]; then
    cat "$dump_log" >&2
    echo "docc.sh: swift package dump-symbol-graph wrote no graph for the libraries" >&2
    exit 1
fi
rm -f "$dump_log"

status=0
for module in MockServerKit MockServerAdminClient MockAdminWire; do
    own="$scratch/graphs-$module"
    rm -rf "$own" && mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    for extension in "$graphs/$module@"*.symbols.json; do [[ -e "$extension" ]] && cp "$extension" "$own/"; done
    echo "-- $module: every public symbol documented"
    python3 scripts/docc-undocumented.py "$own"/*.symbols.json || status=1
    echo "-- $module: docc convert (warnings are errors)"
    "${DOCC[@]}" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" --fallback-bundle-identifier "mock-server.$module" \
        --output-path "$scratch/$module.doccarchive" --analyze --warnings-as-errors || status=1
done
[[ "$status" -eq 0 ]] || { echo "docc.sh: the documentation has the problems above" >&2; exit 1; }
echo "docc.sh: the three catalogs build without warnings; every public symbol is documented"
