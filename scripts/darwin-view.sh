#!/usr/bin/env bash
# The Darwin view, type-checked on Linux. Code on Darwin's side of an `#if` is never compiled here,
# so a Mac-only compile error (a name declared only under `#if os(Linux)` and used unguarded) goes
# unseen until a Mac builds it. This writes every target (Sources, Tests, Examples/RegistrationExample)
# as the macOS compiler sees it, and the library products (MockServerKit, MockServerAdminClient and
# their dependencies) as the iOS compiler sees them, into scratch packages of the same shape, and
# builds them against stand-ins of Darwin's modules (scripts/darwin-view/stand-ins: Glibc plus
# Darwin's declarations, transcribed from Apple's open-source headers with file and line). Where
# corelibs Foundation marks a Darwin API unavailable or lacks it (URLProtectionSpace.serverTrust,
# URLCredential(trust:), NSURLAuthenticationMethodServerTrust), the Security stand-in declares it
# in the macOS SDK's shape, which shadows corelibs' one: the Mac code is compiled as it is written,
# with no accessor or replaced file (stand-ins/Security/Security.swift says why and at what cost).
#
#   scripts/darwin-view.sh [--platform macos|ios|all] [--target T] [--repo DIR] [--scratch DIR] [--write-only]
#
# Each error or warning is printed once, as the compiler prints it, with the scratch path mapped back
# to the repository's (FILE:LINE:COL: error: …); any of them fails (a Mac CI leg fails on warnings too).
# --write-only writes the views and stops (darwin-availability.sh builds them against its own stdlib).
# --target builds that target only (the self-test). The views keep line numbers (inactive lines are
# blank); `#if` conditions are evaluated in scripts/darwin-view/ifview.py, which errors on one it
# does not know. Only the modules build, the test products do not link: SwiftPM's generated test
# runner takes its Darwin branch (XCTIssue, …) as soon as a module named Darwin exists.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
PLATFORM=all; TARGET=; WRITE_ONLY=; SCRATCH=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --platform) PLATFORM="$2"; shift 2;;
    --target) TARGET="$2"; shift 2;;
    --repo) REPO="$(cd "$2" && pwd)"; shift 2;;
    --scratch) SCRATCH="$2"; shift 2;;
    --write-only) WRITE_ONLY=1; shift;;
    -h|--help) sed -n '2,22p' "$0"; exit 0;;
    *) echo "darwin-view: unknown argument $1" >&2; exit 2;;
  esac
done
SCRATCH="${SCRATCH:-$REPO/.build-darwin-view}"
mkdir -p "$SCRATCH"; SCRATCH="$(cd "$SCRATCH" && pwd)"
EXAMPLES=(RegistrationExample)
# The library products an iOS app links, and what they depend on.
IOS_ROOTS=MockServerKit,MockServerAdminClient

swift package --package-path "$REPO" dump-package > "$SCRATCH/dump.json"
example_args=()
for e in "${EXAMPLES[@]}"; do
  swift package --package-path "$REPO/Examples/$e" dump-package > "$SCRATCH/dump-$e.json"
  example_args+=(--example "$e:$SCRATCH/dump-$e.json")
done

# Writes the view of one platform into $SCRATCH/$1 (same relative paths as the repository).
write_view() {
  local platform="$1"; shift
  python3 "$HERE/darwin-view/make-package.py" --platform "$platform" --dump "$SCRATCH/dump.json" \
    --repo "$REPO" --out "$SCRATCH/$platform" "$@"
}

# Builds the targets nothing else depends on (the rest come with them), one `--target` each, and
# prints every distinct diagnostic with repository paths. Returns 1 when there was any.
build_view() {
  local platform="$1" package="$SCRATCH/$1" log="$SCRATCH/$1.log" leaves
  : > "$log"
  if [[ -n "$TARGET" ]]; then leaves="$TARGET"; else
    leaves="$(python3 "$HERE/darwin-view/leaves.py" "$package")"
  fi
  local t status=0
  for t in $leaves; do
    swift build --package-path "$package" --scratch-path "$SCRATCH/build-$platform" --target "$t" >> "$log" 2>&1 || status=1
  done
  python3 - "$log" "$package" "$HERE/darwin-view/stand-ins" <<'PY' || status=1
import re, sys
log, package, stand_ins = sys.argv[1], sys.argv[2] + "/", sys.argv[3] + "/"
diag = re.compile(r"^(/[^:]+):(\d+):(\d+): (error|warning): (.*)$")
seen = []
for line in open(log, errors="replace"):
    m = diag.match(line.rstrip("\n"))
    if not m or m.group(1).endswith("/runner.swift"):
        continue
    path = m.group(1)
    path = path.replace(package + "StandIns/", stand_ins, 1) if path.startswith(package + "StandIns/") \
        else path.replace(package, "", 1)
    text = "%s:%s:%s: %s: %s" % (path, m.group(2), m.group(3), m.group(4), m.group(5))
    if text not in seen:
        seen.append(text)
for text in seen:
    print(text)
sys.exit(1 if seen else 0)
PY
  # A failed build that printed no diagnostic of the compiler's shape still fails, with its tail.
  if [[ $status -ne 0 ]] && ! grep -qE "^/[^:]+:[0-9]+:[0-9]+: (error|warning):" "$log"; then tail -20 "$log"; fi
  return $status
}

failed=0
if [[ "$PLATFORM" == macos || "$PLATFORM" == all ]]; then
  write_view macos "${example_args[@]}"
  if [[ -z "$WRITE_ONLY" ]]; then
    echo "darwin-view: building the macOS view ($SCRATCH/macos)"
    build_view macos || failed=1
  fi
fi
if [[ "$PLATFORM" == ios || "$PLATFORM" == all ]]; then
  write_view ios --only "$IOS_ROOTS"
  if [[ -z "$WRITE_ONLY" ]]; then
    # When no condition tells iOS from macOS in these targets, their iOS view is the macOS view's
    # text, which the macOS build has just compiled: only a different view needs its own build.
    same=1
    if [[ "$PLATFORM" == all ]]; then
      while IFS= read -r -d '' f; do
        cmp -s "$f" "$SCRATCH/macos/${f#"$SCRATCH/ios/"}" || { same=0; break; }
      done < <(find "$SCRATCH/ios/Sources" -name '*.swift' -print0)
    else same=0; fi
    if [[ $same -eq 1 ]]; then
      echo "darwin-view: the iOS view of $IOS_ROOTS is the macOS view's text (compiled above)"
    else
      echo "darwin-view: building the iOS view of $IOS_ROOTS ($SCRATCH/ios)"
      build_view ios || failed=1
    fi
  fi
fi
[[ -n "$WRITE_ONLY" ]] && { echo "darwin-view: views written under $SCRATCH"; exit 0; }
if [[ $failed -ne 0 ]]; then echo "darwin-view: the Darwin view does not build (above)" >&2; exit 1; fi
echo "darwin-view: the Darwin view ($PLATFORM) builds with 0 errors and 0 warnings"
