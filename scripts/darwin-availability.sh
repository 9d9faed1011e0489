#!/usr/bin/env bash
# Darwin availability check, on Linux: builds the package (tests included) against a copy of the
# toolchain's standard library, _Concurrency and Synchronization whose declarations newer than the floor are
# marked deprecated with "Darwin: needs macOS N / iOS M", and fails on every call of such a named
# function, initializer or property. Linux applies no availability rules, so without this a
# macOS-15-only API (String(validating:as:)) builds here and fails on every Mac.
#
#   scripts/darwin-availability.sh [--macos N] [--ios M] [PACKAGE_DIR]
#
# Without --macos/--ios it reads the floors Package.swift declares (`.macOS(.vN)`, `.iOS(.vM)`),
# so .ci/run checks exactly what a Mac or iOS build would.
#
# The standard library's interface file keeps Apple's @available attributes; the check rewrites
# the newer ones and lets the compiler rebuild the module from that text (about 30 s once; the
# module cache is kept in the scratch folder). Operators and type names are left out of the report:
# a rewritten overload of `&*` or `Int128` can be picked where the real compiler would pick the old
# one, so only named calls are reported. Foundation has no interface file on Linux, so its newer
# APIs are not covered: check those by hand against Apple's documentation.
set -euo pipefail
MACOS=; IOS=; PKG=.
while [[ $# -gt 0 ]]; do
  case "$1" in
    --macos) MACOS="$2"; shift 2;;
    --ios) IOS="$2"; shift 2;;
    -h|--help) sed -n '2,19p' "$0"; exit 0;;
    *) PKG="$1"; shift;;
  esac
done
cd "$PKG"
# The declared floors: `.macOS(.v15)` -> 15, `.iOS(.v16_4)` -> 16.4.
floor() { sed -nE "s/.*\.$1\(\.v([0-9]+)(_([0-9]+))?\).*/\1.\3/p" Package.swift | head -1 | sed 's/\.$//'; }
MACOS="${MACOS:-$(floor macOS)}"; IOS="${IOS:-$(floor iOS)}"
if [[ -z "$MACOS" || -z "$IOS" ]]; then
  echo "darwin-availability: Package.swift declares no .macOS/.iOS floor; pass --macos and --ios" >&2; exit 2
fi
TOOLCHAIN_LIB="$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift" && pwd)"
STDLIB="$TOOLCHAIN_LIB/linux/Swift.swiftmodule"
IFACE="$(ls "$STDLIB"/*-linux-gnu.swiftinterface | grep -v private | head -1)"
SCRATCH="${DARWIN_CHECK_SCRATCH:-.build-darwin-availability}"
RD="$SCRATCH/resource-dir"; MC="$SCRATCH/module-cache"
mkdir -p "$SCRATCH"; SCRATCH="$(cd "$SCRATCH" && pwd)"; RD="$SCRATCH/resource-dir"; MC="$SCRATCH/module-cache"
# The modules whose interfaces carry Apple's availability: the standard library, concurrency and
# Synchronization (Atomic, Mutex: macOS 15 / iOS 18). Each is rebuilt from its rewritten interface.
MODULES=(Swift _Concurrency Synchronization)
stamp="$MACOS-$IOS-${MODULES[*]}-$(stat -c %Y "$IFACE")"
if [[ "$(cat "$RD/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$RD" "$MC"; mkdir -p "$RD/linux"
  for e in "$TOOLCHAIN_LIB"/*; do [[ "$(basename "$e")" == linux ]] || ln -s "$(readlink -f "$e")" "$RD/$(basename "$e")"; done
  for e in "$TOOLCHAIN_LIB"/linux/*; do
    name="$(basename "$e")"
    [[ " ${MODULES[*]} " == *" ${name%.swiftmodule} "* ]] || ln -s "$(readlink -f "$e")" "$RD/linux/$name"
  done
  for m in "${MODULES[@]}"; do
    src="$(ls "$TOOLCHAIN_LIB/linux/$m.swiftmodule"/*-linux-gnu.swiftinterface | grep -v private | head -1)"
    mkdir -p "$RD/linux/$m.swiftmodule"
    python3 - "$src" "$RD/linux/$m.swiftmodule/$(basename "$src")" "$MACOS" "$IOS" "$m" <<'PY'
import re, sys
src, dst, mac_floor, ios_floor, module = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
n = 0
def rewrite(m):
    global n
    mac, ios = float(m.group(1)), float(m.group(2))
    if mac <= mac_floor and ios <= ios_floor:
        return m.group(0)
    n += 1
    return '@available(*, deprecated, message: "Darwin: needs macOS %s / iOS %s [%s]")' % (m.group(1), m.group(2), module)
text = re.sub(r'@available\(macOS (\d+(?:\.\d+)?), iOS (\d+(?:\.\d+)?)[^)]*\)', rewrite, open(src).read())
open(dst, "w").write(text)
print("darwin-availability: %d %s declarations are newer than macOS %s / iOS %s" % (n, module, sys.argv[3], sys.argv[4]))
PY
  done
  echo "$stamp" > "$RD/.stamp"
fi
log="$SCRATCH/build.log"
# A full build every time: an incremental one prints no warnings for files it does not recompile.
rm -rf "$SCRATCH/build"
set +e
swift build --build-tests --scratch-path "$SCRATCH/build" -Xswiftc -resource-dir -Xswiftc "$RD" \
  -Xswiftc -module-cache-path -Xswiftc "$MC" >"$log" 2>&1
rc=$?
set -e
if [[ $rc -ne 0 ]]; then echo "darwin-availability: the build failed (see $log):"; grep -m5 'error:' "$log"; exit 2; fi
# Named calls from every module; type names (Atomic, Mutex) too, but from the standard library
# only calls (see above). Lines inside `#if os(Linux)` are Linux-only code and are left out.
hits="$(python3 - "$log" "$PWD" <<'PY'
import re, sys
log, root = sys.argv[1], sys.argv[2] + "/"
pat = re.compile(r"^([^ ][^:]*):(\d+):\d+: warning: '([A-Za-z_][A-Za-z0-9_]*(?:\([^']*\))?)' is deprecated: Darwin: (.*?) \[#DeprecatedDeclaration\]$")
def linux_only(path, line):
    # A stack of open #if blocks: True where the branch taken on Linux is Linux-only.
    stack = []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return False
    for text in lines[:line - 1]:
        t = text.strip()
        if t.startswith("#if "):
            stack.append(t[4:].replace(" ", "") in ("os(Linux)", "canImport(Glibc)"))
        elif t.startswith("#elseif") or t.startswith("#else"):
            if stack: stack[-1] = False
        elif t.startswith("#endif"):
            if stack: stack.pop()
    return any(stack)
out = set()
for l in open(log):
    m = pat.match(l.rstrip("\n"))
    if not m: continue
    path, line, name, what = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    if name[0].isupper() and what.endswith("[Swift]"): continue
    if linux_only(path, line): continue
    out.add("%s:%d: '%s' %s" % (path.replace(root, "", 1), line, name, what))
print("\n".join(sorted(out)))
PY
)"
if [[ -n "$hits" ]]; then
  echo "$hits"
  echo "darwin-availability: $(echo "$hits" | wc -l) use(s) of standard-library APIs newer than macOS $MACOS / iOS $IOS"
  exit 1
fi
echo "darwin-availability: no standard-library, concurrency or Synchronization API newer than macOS $MACOS / iOS $IOS is called"
