#!/usr/bin/env bash
# The Swift recipes of README.md and docs/ compile in Swift 6 mode, as pasted: scripts/readme-recipes.py
# writes each block into Examples/ReadmeRecipes (one test target per block, with @MainActor shims of
# XCTest's UI API), then this builds the package. An error (an isolation error included) or a
# warning in a recipe fails. How a block opts out: see the docstring of scripts/readme-recipes.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
python3 scripts/readme-recipes.py
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The manifest lists the generated targets from the folder, which SwiftPM's manifest cache does not
# watch: after a README edit moves a block, a cached manifest names targets that no longer exist.
if ! swift build --build-tests --package-path Examples/ReadmeRecipes --manifest-cache none 2>&1 | tee "$log"; then
    echo "readme-recipes: a Swift block of the README or docs does not compile (errors above; the" >&2
    echo "readme-recipes: file names Recipe_<page>_L<line> give the page and the line of the block)" >&2
    exit 1
fi
if grep -E "/Examples/ReadmeRecipes/Tests/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u | grep .; then
    echo "readme-recipes: a Swift block of the README or docs compiles with warnings (above)" >&2
    exit 1
fi
echo "readme-recipes: every Swift block of README.md and docs/ compiles in Swift 6 mode, without warnings"
