#!/usr/bin/env python3
"""Writes every Swift block of the project's Markdown into Examples/ReadmeRecipes as a test target
of its own, so `swift build --build-tests --package-path Examples/ReadmeRecipes` compiles each one
in Swift 6 mode, as a user would paste it.

Which files: README.md, docs/**/*.md and every DocC catalogue's articles (**/*.docc/**/*.md) —
new pages and new blocks are picked up without touching this script.

How a block becomes a file:
  - A block with declarations (imports, types, functions, globals) is the file as written. Without
    any `import` line it is a fragment of an app or test file, so `import Foundation` is added.
  - A block of statements (a line at the start that is `try …`, `await …`, a call or an
    assignment) is wrapped as the body of `@MainActor func recipe(app: XCUIApplication) async
    throws`, with Foundation, XCTest and MockServerKit imported: the setting such a snippet is
    pasted into in a UI test.
  - Shims/*.swift are copied beside every block: XCUIApplication & co. with Apple's @MainActor
    isolation (Linux's XCTest has no UI API) and the "code under test" the recipes call.

Opting out: put an HTML comment on the line right before the opening fence (invisible on the page):
    <!-- recipe: skip — WHY -->   the block cannot compile here (e.g. a fragment of this repository's
                                   own targets, internal API, or Darwin-only API without a shim)
    <!-- recipe: body -->         force the statement wrapping
    <!-- recipe: file -->         force the file-as-written treatment
A skip must say why; the script lists every skipped block with its reason.
"""
import glob
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "Examples", "ReadmeRecipes")
TESTS = os.path.join(PACKAGE, "Tests")
MARKER = re.compile(r"^<!--\s*recipe:\s*(skip|body|file)\b\s*(?:[—–-]+\s*)?(.*?)\s*-->\s*$")
STATEMENT = re.compile(r"^(try|await)\b|^[a-z_][A-Za-z0-9_]*\s*(\.|\[|\(|=[^=])")


def pages():
    found = [os.path.join(ROOT, "README.md")]
    found += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    found += sorted(p for p in glob.glob(os.path.join(ROOT, "**", "*.docc", "**", "*.md"), recursive=True)
                    if "/.build" not in p and "/Examples/ReadmeRecipes/" not in p)
    return [p for p in found if os.path.isfile(p)]


def blocks(path):
    """(line of the fence, marker, reason, code) for each ```swift block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            start = i + 1
            previous = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            m = MARKER.match(previous)
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                sys.exit(f"readme-recipes: {path}:{i + 1}: a swift block is never closed")
            yield i + 1, (m.group(1) if m else None), (m.group(2) if m else ""), "\n".join(lines[start:j]) + "\n"
            i = j + 1
        else:
            i += 1


def is_statements(code):
    for line in code.split("\n"):
        if line and not line[0].isspace() and not line.startswith("//") and STATEMENT.match(line):
            return True
    return False


def render(code, kind):
    if kind == "body":
        imports = [l for l in code.split("\n") if l.startswith("import ")]
        body = [l for l in code.split("\n") if not l.startswith("import ")]
        head = sorted(set(["import Foundation", "import XCTest", "import MockServerKit"] + imports))
        indented = "\n".join(("    " + l) if l else l for l in body).rstrip()
        return "\n".join(head) + "\n\n@MainActor\nfunc recipe(app: XCUIApplication) async throws {\n" + indented + "\n}\n"
    if not any(l.startswith("import ") for l in code.split("\n")):
        return "import Foundation\n\n" + code
    return code


def main():
    shutil.rmtree(TESTS, ignore_errors=True)
    os.makedirs(TESTS)
    shims = sorted(glob.glob(os.path.join(PACKAGE, "Shims", "*.swift")))
    written, skipped = 0, []
    for page in pages():
        rel = os.path.relpath(page, ROOT)
        slug = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(rel)[0]).strip("_")
        for line, marker, reason, code in blocks(page):
            where = f"{rel}:{line}"
            if marker == "skip":
                if not reason:
                    sys.exit(f"readme-recipes: {where}: '<!-- recipe: skip -->' needs a reason after it")
                skipped.append(f"{where}: {reason}")
                continue
            kind = marker or ("body" if is_statements(code) else "file")
            target = os.path.join(TESTS, f"Recipe_{slug}_L{line}")
            os.makedirs(target)
            with open(os.path.join(target, "Recipe.swift"), "w", encoding="utf-8") as out:
                out.write(f"// {where} ({'wrapped as a function body' if kind == 'body' else 'as written'})\n")
                out.write(render(code, kind))
            for shim in shims:
                shutil.copy(shim, target)
            written += 1
    for s in skipped:
        print(f"readme-recipes: skipped {s}")
    print(f"readme-recipes: {written} Swift blocks written to Examples/ReadmeRecipes/Tests, {len(skipped)} skipped")
    if written == 0:
        sys.exit("readme-recipes: no Swift block found (README.md moved?)")


if __name__ == "__main__":
    main()
