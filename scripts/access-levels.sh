#!/usr/bin/env bash
# Access levels the compiler does not enforce (README, "Layout"): declarations are `package` by
# default; `public` (or `open`) only in the targets a product exposes: the two libraries
# (MockServerKit, MockServerAdminClient), the executable, and what the admin client links (its wire
# types). Any other target (the transport, the kit, the systems, the control plane, persistence,
# stubs, the composition root, the test support) that declares something `public` fails, listed as
# file:line. A test support target may keep `open` for a test case base class (a test target
# subclasses it, and only `open` allows that across modules). The targets and their folders come from `swift package dump-package`, so a new target
# is covered without editing this file.
#
#   scripts/access-levels.sh          check (CI)
#   scripts/access-levels.sh --fix    rewrite those declarations to `package` (rerunnable)
#
# A declaration is a line whose first words are attributes and modifiers followed by `public` or
# `open`; comments, block comments and multi-line string literals are skipped.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODE="${1:-check}"
case "$MODE" in check|--fix) ;; *) echo "usage: $0 [--fix]" >&2; exit 2 ;; esac
PACKAGE_JSON="$(mktemp)"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$PACKAGE_JSON" "$SCRATCH"' EXIT
# Its own scratch folder: reading the manifest neither waits for nor disturbs a build in .build.
swift package --scratch-path "$SCRATCH" dump-package > "$PACKAGE_JSON"

python3 - "$PACKAGE_JSON" "$MODE" "$ROOT" <<'PY'
import json, os, re, sys
package_json, mode, root = sys.argv[1], sys.argv[2], sys.argv[3]
package = json.load(open(package_json))
targets = {t["name"]: t for t in package["targets"]}

def dependencies(target):
    names = []
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        names.append(value[0])
    return [name for name in names if name in targets]

# The targets whose declarations may be public: every product's targets, and everything the admin
# client links (it links neither the server nor the systems: only its wire vocabulary).
allowed = {name for product in package["products"] for name in product["targets"]}
pending = ["MockServerAdminClient"] if "MockServerAdminClient" in targets else []
while pending:
    for name in dependencies(targets[pending.pop()]):
        if name not in allowed:
            allowed.add(name)
            pending.append(name)

def folder(target):
    if target.get("path"):
        return target["path"]
    return os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])

# Each Swift file belongs to the target with the longest folder containing it (Routes holds the
# folders of the other mock targets and excludes them).
folders = sorted(((folder(t), name) for name, t in targets.items() if t["type"] in ("regular", "executable", "test")),
                 key=lambda pair: -len(pair[0]))
def owner(path):
    for prefix, name in folders:
        if path.startswith(prefix + "/"):
            return name
    return None

MODIFIERS = (r"(?:@\w+(?:\([^()]*\))?|final|static|class|nonisolated|override|convenience|required|indirect|"
             r"lazy|mutating|nonmutating|dynamic|weak|unowned|prefix|postfix|infix|distributed)")
DECLARATION = re.compile(r"^(\s*(?:" + MODIFIERS + r"\s+)*)(public|open)(?=\s+(?:" + MODIFIERS +
                         r"|private|internal|fileprivate|var|let|func|init|subscript|struct|enum|protocol|"
                         r"typealias|extension|actor|associatedtype|operator|precedencegroup|macro)\b)")

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
findings, changed = [], 0
for top in ("Sources", "Tests"):
    for directory, _, files in sorted(os.walk(top)):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            target = owner(path)
            if target is None or target in allowed:
                continue
            lines = open(path, encoding="utf-8").read().split("\n")
            in_block_comment = in_multiline_string = False
            before = len(findings)
            for index, line in enumerate(lines):
                stripped = line.strip()
                code = not (in_block_comment or in_multiline_string or stripped.startswith("//"))
                match = DECLARATION.match(line) if code else None
                if match and not (match.group(2) == "open" and path.startswith("Tests/")):
                    findings.append(f"{path}:{index + 1}: {target}: {stripped}")
                    lines[index] = match.group(1) + "package" + line[match.end():]
                # Coarse state for what follows: a line opening or closing a block comment or a
                # multi-line string literal (this code base keeps both on lines of their own).
                bare = STRING.sub('""', line).split("//", 1)[0] if not in_block_comment else line
                if in_block_comment:
                    in_block_comment = "*/" not in line
                elif not in_multiline_string and "/*" in bare and "*/" not in bare.split("/*", 1)[1]:
                    in_block_comment = True
                elif not stripped.startswith("//") and line.count('"""') % 2 == 1:
                    in_multiline_string = not in_multiline_string
            if mode == "--fix" and len(findings) > before:
                open(path, "w", encoding="utf-8").write("\n".join(lines))
                changed += 1

if mode == "--fix":
    print(f"access-levels: {len(findings)} declarations in {changed} files rewritten to package")
    sys.exit(0)
if findings:
    print("\n".join(findings))
    print(f"access-levels: {len(findings)} public/open declarations outside the products' targets "
          f"({', '.join(sorted(allowed))}); make them `package` (scripts/access-levels.sh --fix)", file=sys.stderr)
    sys.exit(1)
print(f"access-levels: public/open only in {', '.join(sorted(allowed))}")
PY
