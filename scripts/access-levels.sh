#!/usr/bin/env bash
# Access levels the compiler does not enforce (README, "Layout"), two rules:
#
# 1. `public` (or `open`) only in the targets a product exposes: the two libraries (MockServerKit,
#    MockServerAdminClient), the executable, and what the admin client links (its wire types). Any
#    other target (the transport, the kit, the systems, the control plane, persistence, stubs, the
#    composition root, the test support) that declares something `public` fails, listed as
#    file:line. A test support target may keep `open` for a test case base class (a test target
#    subclasses it, and only `open` allows that across modules).
# 2. `internal` by default, `package` only where another target names it. A `package` declaration
#    (func, var, let, struct, class, enum, protocol, typealias, actor, associatedtype, subscript;
#    not init, deinit, operators or extension lines) whose name occurs as an identifier in no Swift
#    file of any other target fails, listed as file:line: target: text. "Another target" is every
#    target of the manifest other than the declaration's own (test targets included: the tests use
#    plain `import`, never `@testable`), and the Swift files under Examples/ and any file of no
#    target count as one more. The match is on whole identifiers anywhere in those files, comments
#    and strings included, so a name mentioned anywhere outside keeps `package`. A subscript has
#    no name of its own: it is judged by the name of the type or extension it is declared in.
#    What the compiler needs `package` for although no other target names it stays `package` too:
#    - by rule: a name of the same target that occurs in the signature of a declaration that stays
#      `package` (an init or extension included): its header up to the body (parameters, result,
#      thrown error, default arguments, inheritance, constraints), the right side of a typealias,
#      the initialiser of a var/let without a type annotation, an enum's case payloads, and the
#      whole body of an @inlinable one; repeated until nothing more stays;
#    - by name: scripts/access-levels-keep.txt, one `Target name  # why` a line, for what no
#      identifier shows (a protocol witness such as a literal's `ArrayLiteralElement`, a
#      `callAsFunction` called as `value(...)`). A keep line that the rules above do not need (no
#      such declaration, another target names it, or a signature keeps it) fails the check, so the
#      list cannot go stale.
#
# The targets and their folders come from `swift package dump-package`, so a new target is covered
# without editing this file.
#
#   scripts/access-levels.sh          check (CI)
#   scripts/access-levels.sh --fix    rewrite public/open to `package` (rule 1) and drop the `package`
#                                     of rule 2's findings (internal is Swift's default); rerunnable
#
# A declaration is a line whose first words are attributes and modifiers followed by `public`,
# `open` or `package`; comments, block comments and multi-line string literals are skipped.
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

python3 - "$PACKAGE_JSON" "$MODE" "$ROOT" "$ROOT/scripts/access-levels-keep.txt" <<'PY'
import json, os, re, sys
package_json, mode, root, keep_file = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
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

# Rule 2: a `package` declaration and the name it declares (a subscript's is its enclosing type's).
WORD_MODIFIER = r"(?:@\w+(?:\([^()]*\))?|\w+(?:\(\w+\))?)"
PACKAGE = re.compile(r"^(\s*(?:" + WORD_MODIFIER + r"\s+)*)package\s+((?:" + WORD_MODIFIER + r"\s+)*?)"
                     r"(func|var|let|case|struct|class|enum|protocol|typealias|actor|associatedtype|subscript)\b"
                     r"\s*`?([A-Za-z_]\w*)?")
UNNAMED = re.compile(r"^(\s*(?:" + WORD_MODIFIER + r"\s+)*)package\s+((?:" + WORD_MODIFIER + r"\s+)*?)(init|extension)\b")
NOMINAL = re.compile(r"^\s*(?:" + WORD_MODIFIER + r"\s+)*(?:struct|class|enum|actor|extension|protocol)\s+"
                     r"([A-Za-z_][\w.]*)")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
OUTSIDE = "(no target)"

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

def code_lines(lines):
    """The indices of the lines that are code: not in a comment, block comment or multi-line string."""
    in_block_comment = in_multiline_string = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not (in_block_comment or in_multiline_string or stripped.startswith("//")):
            yield index
        # Coarse state for what follows: a line opening or closing a block comment or a
        # multi-line string literal (this code base keeps both on lines of their own).
        bare = STRING.sub('""', line).split("//", 1)[0] if not in_block_comment else line
        if in_block_comment:
            in_block_comment = "*/" not in line
        elif not in_multiline_string and "/*" in bare and "*/" not in bare.split("/*", 1)[1]:
            in_block_comment = True
        elif not stripped.startswith("//") and line.count('"""') % 2 == 1:
            in_multiline_string = not in_multiline_string

def indentation(line):
    return len(line) - len(line.lstrip())

def enclosing_type(lines, index):
    """The last name of the type or extension whose body holds line `index` (the code base is indented)."""
    depth = indentation(lines[index])
    for previous in range(index - 1, -1, -1):
        line = lines[previous]
        if line.strip() and indentation(line) < depth:
            match = NOMINAL.match(line)
            if match:
                return match.group(1).split(".")[-1]
            depth = indentation(line)
    return None

# Every Swift file: its lines, and where each identifier occurs (the owning target, or OUTSIDE for
# Examples/ and a file no target holds).
files, named_in = {}, {}
for top in ("Sources", "Tests", "Examples"):
    for directory, subdirectories, names in os.walk(top):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        for file in sorted(names):
            if file.endswith(".swift"):
                path = os.path.join(directory, file)
                text = open(path, encoding="utf-8").read()
                files[path] = text.split("\n")
                target = (owner(path) if top != "Examples" else None) or OUTSIDE
                for identifier in set(IDENTIFIER.findall(text)):
                    named_in.setdefault(identifier, set()).add(target)

def named_outside(name, target):
    return bool(named_in.get(name, set()) - {target})

keep = {}
for number, line in enumerate(open(keep_file, encoding="utf-8").read().split("\n") if os.path.exists(keep_file) else [], 1):
    entry = line.split("#", 1)[0].split()
    if entry:
        if len(entry) != 2 or "#" not in line:
            sys.exit(f"{os.path.relpath(keep_file, root)}:{number}: expected `Target name  # why`: {line}")
        keep[(entry[0], entry[1])] = number

def signature(lines, index, start, kind, inlinable):
    """What the compiler checks against a declaration's access level, as text: the header up to the
    body's `{` (parameters, result, default arguments, generic constraints, inheritance), with the
    initialiser of a `var`/`let` that has no type annotation (its type comes from it), the right side
    of a typealias, and the whole body of an @inlinable declaration."""
    text, depth, body, number = [], 0, False, index
    annotated = False
    position = start
    while number < len(lines) and number < index + 40:
        line = lines[number]
        column = position
        while column < len(line):
            character = line[column]
            if character == '"':
                closing = line.find('"', column + 1)
                column = len(line) if closing < 0 else closing + 1
                continue
            if line.startswith("//", column):
                break
            if character in "([":
                depth += 1
            elif character in ")]":
                depth -= 1
            elif character == ":" and depth == 0 and kind in ("var", "let") and not body:
                annotated = True
            elif character == "=" and depth == 0 and kind in ("var", "let") and annotated and not body:
                text.append(line[position:column])
                return " ".join(text)
            elif character == "{":
                if not body and depth == 0 and not inlinable:
                    text.append(line[position:column])
                    return " ".join(text)
                if not body and depth == 0:
                    body = True
                depth += 1 if body else 0
            elif character == "}" and body:
                depth -= 1
                if depth == 0:
                    text.append(line[position:column + 1])
                    return " ".join(text)
            column += 1
        text.append(line[position:])
        following = lines[number + 1].strip() if number + 1 < len(lines) else ""
        if depth == 0 and not body and not following.startswith(("->", "throws", "async", "where", "rethrows")):
            return " ".join(text)
        number, position = number + 1, 0
    return " ".join(text)

def enum_cases(lines, index):
    """The `case` lines of the enum declared at line `index` (their payloads are part of its signature)."""
    depth, member = indentation(lines[index]), None
    for line in lines[index + 1:]:
        if not line.strip():
            continue
        if indentation(line) <= depth:
            return
        member = member or indentation(line)
        if indentation(line) == member and re.match(r"\s*(?:indirect\s+)?case\b", line):
            yield line

public_findings, package_findings, touched = [], [], set()
declarations = []  # (path, index, target, name, match, signature identifiers)
for path in sorted(files):
    target = owner(path)
    if target is None:
        continue
    lines = files[path]
    for index in code_lines(lines):
        line, stripped = lines[index], lines[index].strip()
        match = DECLARATION.match(line) if target not in allowed else None
        if match and not (match.group(2) == "open" and path.startswith("Tests/")):
            public_findings.append(f"{path}:{index + 1}: {target}: {stripped}")
            touched.add(path)
            line = lines[index] = match.group(1) + "package" + line[match.end():]
        match = PACKAGE.match(line)
        if not match:
            # An initialiser or extension stays `package`, and so does what its signature names.
            match = UNNAMED.match(line)
            if match:
                text = signature(lines, index, match.start(3), match.group(3), "@inlinable" in match.group(1) + match.group(2))
                declarations.append((path, index, target, None, match, set(IDENTIFIER.findall(text))))
            continue
        if match.group(3) == "case":
            continue
        name = enclosing_type(lines, index) if match.group(3) == "subscript" else match.group(4)
        if name is None:
            continue
        inlinable = "@inlinable" in match.group(1) + match.group(2)
        text = signature(lines, index, match.start(3), match.group(3), inlinable)
        if match.group(3) == "enum":
            text += " " + " ".join(enum_cases(lines, index))
        declarations.append((path, index, target, name, match, set(IDENTIFIER.findall(text))))

# What stays `package`: a name another target names, a kept one, and (to a fixed point) a name of the
# same target that what stays names in its signature: the compiler refuses a `package` declaration
# whose signature (or @inlinable body, or enum case payload) reaches something internal.
candidates = {(target, name) for _, _, target, name, _, _ in declarations if name is not None}
def staying(seeds):
    stays = set(seeds) | {(target, None) for _, _, target, name, _, _ in declarations if name is None}
    growing = True
    while growing:
        growing = False
        for _, _, target, name, _, identifiers in declarations:
            if (target, name) in stays:
                for identifier in identifiers:
                    if (target, identifier) in candidates and (target, identifier) not in stays:
                        stays.add((target, identifier))
                        growing = True
    return stays
named = {(target, name) for target, name in candidates if named_outside(name, target)}
without_keep = staying(named)
stays = staying(named | (set(keep) & candidates))
by_signature = {key for key in without_keep if key[1] is not None} - named

for path, index, target, name, match, _ in declarations:
    if (target, name) in stays:
        continue
    line = files[path][index]
    package_findings.append(f"{path}:{index + 1}: {target}: {line.strip()}")
    files[path][index] = match.group(1) + match.group(2) + line[match.start(3):]
    touched.add(path)
if mode == "--fix":
    for path in sorted(touched):
        open(path, "w", encoding="utf-8").write("\n".join(files[path]))

# A keep line is needed only for a `package` declaration of its target that the rules above make internal.
keep_name = os.path.relpath(keep_file, root)
stale = [f"{keep_name}:{number}: {target} {name}: no `package` declaration of {target} needs this line "
         f"(there is none, another target names it, or a signature keeps it)"
         for (target, name), number in sorted(keep.items(), key=lambda item: item[1])
         if (target, name) not in candidates or (target, name) in without_keep]
if mode == "--fix":
    print(f"access-levels: {len(public_findings)} declarations rewritten to package, {len(package_findings)} "
          f"to internal, in {len(touched)} files")
    if stale:
        print("\n".join(stale), file=sys.stderr)
        sys.exit(1)
    sys.exit(0)
if public_findings:
    print("\n".join(public_findings))
    print(f"access-levels: {len(public_findings)} public/open declarations outside the products' targets "
          f"({', '.join(sorted(allowed))}); make them `package` (scripts/access-levels.sh --fix)", file=sys.stderr)
if package_findings:
    print("\n".join(package_findings))
    print(f"access-levels: {len(package_findings)} package declarations whose name no other target names; "
          f"drop `package` (scripts/access-levels.sh --fix), or keep one the compiler needs in {keep_name}",
          file=sys.stderr)
if stale:
    print("\n".join(stale), file=sys.stderr)
if public_findings or package_findings or stale:
    sys.exit(1)
print(f"access-levels: public/open only in {', '.join(sorted(allowed))}; package only where another target "
      f"names it ({len(by_signature)} names kept by a signature, {len(keep)} by {keep_name})")
PY
