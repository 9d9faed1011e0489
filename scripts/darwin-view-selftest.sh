#!/usr/bin/env bash
# Proves scripts/darwin-view.sh catches a Mac-only compile error: on a copy of the repository with
# F1 put back (TestSupport's `enum PrivateNetwork` declared only under `#if os(Linux)`, as before
# e899a2c, while RoutesTests names it outside any `#if`), the view must fail with "cannot find
# 'PrivateNetwork' in scope" at a Tests/RoutesTests path. It builds only RoutesTests, in the view's
# own scratch folder, so after darwin-view.sh only TestSupport and the tests above it recompile.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COPY="$(mktemp -d /tmp/darwin-view-selftest.XXXXXX)"
trap 'rm -rf "$COPY"' EXIT
(cd "$ROOT" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$COPY"

# F1: the whole file, the enum included, inside `#if os(Linux)` (its own `#if os(Linux)` nests).
file="$COPY/Tests/TestSupport/PrivateNetwork.swift"
grep -q "package enum PrivateNetwork" "$file" \
  || { echo "darwin-view-selftest: $file no longer declares enum PrivateNetwork; update the self-test" >&2; exit 1; }
{ echo "#if os(Linux)"; cat "$file"; echo "#endif"; } > "$file.new" && mv "$file.new" "$file"

out="$(bash "$ROOT/scripts/darwin-view.sh" --platform macos --repo "$COPY" --scratch "$ROOT/.build-darwin-view" \
  --target RoutesTests 2>&1)" && rc=0 || rc=$?
expected="^Tests/RoutesTests/[^:]+:[0-9]+:[0-9]+: error: cannot find 'PrivateNetwork' in scope$"
if [[ $rc -ne 0 ]] && grep -qE "$expected" <<< "$out"; then
  grep -E "$expected" <<< "$out"
  echo "darwin-view-selftest: F1 put back fails the Darwin view, at the repository's paths, as it should"
else
  echo "$out"
  echo "darwin-view-selftest: the Darwin view did not report F1 (exit $rc); expected a line matching $expected" >&2
  exit 1
fi
