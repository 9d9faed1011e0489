#!/usr/bin/env bash
# Darwin availability check, on Linux: builds the Darwin view of the package (scripts/darwin-view.sh:
# every `#if` evaluated for macOS, so Darwin's branches are compiled too and Linux's are not) against
# a copy of the toolchain's standard library, _Concurrency, Synchronization and _StringProcessing
# whose declarations newer than the floor are marked deprecated with "Darwin: needs macOS N / iOS M",
# and fails on every use of such a declaration. Linux applies no availability rules, so without this
# a macOS-15-only API (String(validating:as:)) builds here and fails on every Mac.
#
#   scripts/darwin-availability.sh [--macos N] [--ios M] [PACKAGE_DIR]
#
# Without --macos/--ios it reads the floors Package.swift declares (`.macOS(.vN)`, `.iOS(.vM)`),
# so .ci/run checks exactly what a Mac or iOS build would.
#
# The interface files keep Apple's @available attributes; the check rewrites the newer ones and
# lets the compiler rebuild the modules from that text (about 30 s once; the module cache is kept
# in the scratch folder). What is reported:
# - a named function, initializer, property or subscript, from any of the four modules;
# - a capitalised name (a type: `Int128`, `UInt128`, `InlineArray`, `Atomic`, `Mutex`) only when it
#   is a top-level type the rewritten interfaces mark (listed while rewriting) and the source spells
#   it where the warning points. A member or associated type (`AsyncIteratorProtocol.Failure`) is
#   left out: the same name is often the code's own type. So is a type the solver inferred for a
#   literal (`(0..<9).map { UInt8(truncatingIfNeeded: $0 &* 31) }` warns "'Int128'" here, while
#   the real compiler, with no deprecated candidates, picks Int);
# - not operators: a rewritten overload of `&*` can be picked where the real compiler picks an old one.
# A canary file planted in the view calls an API newer than any floor (Array.span, macOS 26 / iOS 26):
# if its warning is not matched, the diagnostic format changed and the check fails rather than
# passing on nothing. Foundation has no interface file on Linux, so its newer APIs are not covered:
# docs/darwin-availability.md lists them, checked by hand against Apple's documentation.
set -euo pipefail
MACOS=; IOS=; PKG=.
while [[ $# -gt 0 ]]; do
  case "$1" in
    --macos) MACOS="$2"; shift 2;;
    --ios) IOS="$2"; shift 2;;
    -h|--help) sed -n '2,29p' "$0"; exit 0;;
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
# The public interface of a module folder (not its .private one).
interface() { local f; for f in "$1"/*-linux-gnu.swiftinterface; do [[ "$f" == *.private.* ]] || { echo "$f"; return; }; done; }
IFACE="$(interface "$STDLIB")"
SCRATCH="${DARWIN_CHECK_SCRATCH:-.build-darwin-availability}"
RD="$SCRATCH/resource-dir"; MC="$SCRATCH/module-cache"
mkdir -p "$SCRATCH"; SCRATCH="$(cd "$SCRATCH" && pwd)"; RD="$SCRATCH/resource-dir"; MC="$SCRATCH/module-cache"
# The modules whose interfaces carry Apple's availability: the standard library, concurrency,
# Synchronization (Atomic, Mutex: macOS 15 / iOS 18) and _StringProcessing (Regex, wholeMatch,
# replacing…). Each is rebuilt from its rewritten interface.
MODULES=(Swift _Concurrency Synchronization _StringProcessing)
# The canary needs an API newer than both floors.
if awk -v m="$MACOS" -v i="$IOS" 'BEGIN { exit !(m >= 26 || i >= 26) }'; then
  echo "darwin-availability: the floors reach macOS/iOS 26; pick a newer canary than Array.span" >&2; exit 2
fi
stamp="$MACOS-$IOS-${MODULES[*]}-$(stat -c %Y "$IFACE")"
if [[ "$(cat "$RD/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$RD" "$MC"; mkdir -p "$RD/linux"
  for e in "$TOOLCHAIN_LIB"/*; do [[ "$(basename "$e")" == linux ]] || ln -s "$(readlink -f "$e")" "$RD/$(basename "$e")"; done
  for e in "$TOOLCHAIN_LIB"/linux/*; do
    name="$(basename "$e")"
    [[ " ${MODULES[*]} " == *" ${name%.swiftmodule} "* ]] || ln -s "$(readlink -f "$e")" "$RD/linux/$name"
  done
  for m in "${MODULES[@]}"; do
    src="$(interface "$TOOLCHAIN_LIB/linux/$m.swiftmodule")"
    mkdir -p "$RD/linux/$m.swiftmodule"
    python3 - "$src" "$RD/linux/$m.swiftmodule/$(basename "$src")" "$MACOS" "$IOS" "$m" "$RD/marked-types.txt" <<'PY'
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
# Top-level types marked above (a declaration at column 0 after the marked attribute and others).
types = re.findall(r'^@available\(\*, deprecated, message: "Darwin: [^"]*"\)\n(?:@[^\n]*\n)*'
                   r'(?:@\S+ )*public (?:final )?(?:struct|enum|class|actor|protocol|typealias) ([A-Z]\w*)', text, re.M)
with open(sys.argv[6], "a") as out:
    out.writelines(f"{t}\n" for t in sorted(set(types)))
print("darwin-availability: %d %s declarations are newer than macOS %s / iOS %s" % (n, module, sys.argv[3], sys.argv[4]))
PY
  done
  echo "$stamp" > "$RD/.stamp"
fi
log="$SCRATCH/build.log"
# The Darwin view of the package (macOS; the iOS view of the libraries is the same text today, see
# darwin-view.sh), and the canary in its Darwin stand-in, which every target depends on.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/darwin-view.sh" --write-only --platform macos --repo "$PWD" --scratch "$SCRATCH/view" > /dev/null
VIEW="$SCRATCH/view/macos"
CANARY="StandIns/Darwin/AvailabilityCanary.swift"
cat > "$VIEW/$CANARY" <<'SWIFT'
// Planted by darwin-availability.sh: Array.span is macOS 26 / iOS 26, newer than any floor, so this
// line must be reported, or the check's pattern no longer matches the compiler's warnings.
public func darwinAvailabilityCanary() -> Int { [1].span.count }
SWIFT
# A full build every time: an incremental one prints no warnings for files it does not recompile.
rm -rf "$SCRATCH/build"; : > "$log"
rc=0
for target in $(python3 "$ROOT/scripts/darwin-view/leaves.py" "$VIEW"); do
  swift build --package-path "$VIEW" --target "$target" --scratch-path "$SCRATCH/build" \
    -Xswiftc -resource-dir -Xswiftc "$RD" -Xswiftc -module-cache-path -Xswiftc "$MC" >>"$log" 2>&1 || rc=1
done
if [[ $rc -ne 0 ]]; then echo "darwin-availability: the build failed (see $log):"; grep -m5 'error:' "$log"; exit 2; fi
# Every marked use (see the header for which names count), at the repository's paths; the
# canary's line apart, which must be there.
hits="$(python3 - "$log" "$VIEW/" "$CANARY" "$RD/marked-types.txt" <<'PY'
import re, sys
log, view, canary, types_file = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
marked_types = set(open(types_file).read().split())
pat = re.compile(r"^([^ ][^:]*):(\d+):(\d+): warning: '([A-Za-z_][A-Za-z0-9_]*(?:\([^']*\))?)' is deprecated: Darwin: (.*?) \[#DeprecatedDeclaration\]$")
out, canary_seen = set(), False
for l in open(log):
    m = pat.match(l.rstrip("\n"))
    if not m: continue
    path, line, column, name, what = m.group(1).replace(view, "", 1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
    if path == canary:
        canary_seen = True
        continue
    if name[0].isupper():
        # A type counts where the source spells it: not where the solver inferred it for a literal.
        source = open(view + path).read().split("\n")[line - 1]
        if name not in marked_types or not source[column - 1:].startswith(name): continue
    out.add("%s:%d: '%s' %s" % (path, line, name, what))
if not canary_seen:
    sys.exit("darwin-availability: the canary (%s) was not reported: the warning pattern matches nothing "
             "this compiler prints, so the check would pass on anything" % canary)
print("\n".join(sorted(out)))
PY
)"
if [[ -n "$hits" ]]; then
  echo "$hits"
  echo "darwin-availability: $(echo "$hits" | wc -l) use(s) of standard-library APIs newer than macOS $MACOS / iOS $IOS"
  exit 1
fi
echo "darwin-availability: the canary was reported; no standard-library, concurrency, Synchronization or _StringProcessing API newer than macOS $MACOS / iOS $IOS is used"
