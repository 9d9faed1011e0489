#!/usr/bin/env python3
"""A Swift file as the macOS (or iOS) compiler sees it: every #if/#elseif/#else/#endif evaluated.

    ifview.py --platform macos|ios FILE...     (prints the view of one FILE; with --out-dir, writes each)

Inactive lines and the directive lines themselves become empty lines, so the view has the original's
line numbers and a diagnostic maps 1:1 back to it. Directives are found the way the compiler finds
them: at the start of a line (after blanks), outside comments and string literals, so a postfix `#if`
inside an expression or attribute list works too. A condition this file does not know is an error
naming FILE:LINE, so the table below grows only on purpose.
"""
import os
import re
import sys

# What each view's compiler answers. Swift 6.0 is the oldest compiler claimed (Xcode 16.0).
SWIFT_VERSION = (6, 0)
PLATFORMS = {
    "macos": {
        "os": {"macOS"},
        "canImport": {"Darwin", "Foundation", "Dispatch", "XCTest", "Synchronization", "Testing",
                      "AppKit", "ObjectiveC", "CoreServices", "Security"},
    },
    "ios": {
        "os": {"iOS"},
        "canImport": {"Darwin", "Foundation", "Dispatch", "XCTest", "Synchronization", "Testing",
                      "UIKit", "ObjectiveC", "Security"},
    },
}
KNOWN_OS = {"macOS", "iOS", "tvOS", "watchOS", "visionOS", "Linux", "Windows", "Android", "FreeBSD",
            "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku", "none"}
# Modules either view can answer for; anything else is an error (add it here with its answer).
KNOWN_MODULES = {"Darwin", "Foundation", "Dispatch", "XCTest", "Synchronization", "Testing", "AppKit",
                 "UIKit", "ObjectiveC", "Glibc", "Musl", "Bionic", "WASILibc", "ucrt", "WinSDK",
                 "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CEpoll", "Android", "CoreServices",
                 "Security"}
KNOWN_ARCH = {"x86_64", "arm64", "i386", "arm", "arm64_32", "wasm32", "powerpc64le", "s390x", "riscv64"}
FLAGS = {"DEBUG": True}
DIRECTIVE = re.compile(r"^[ \t]*#(if|elseif|else|endif)\b(.*)$")
MULTILINE_OPEN = re.compile(r'(#*)"""')
STRING_OPEN = re.compile(r'(#*)"')


class ViewError(Exception):
    pass


def code_lines(text):
    """Per line: True when the line starts in code (not inside a block comment or multi-line string)."""
    out = []
    i, n = 0, len(text)
    depth = 0          # nested /* */ depth
    ml = None          # closing delimiter of the multi-line string we are in, e.g. '"""' or '"""#'
    out.append(True)
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(depth == 0 and ml is None)
            i += 1
            continue
        if depth:
            if text.startswith("/*", i):
                depth += 1; i += 2
            elif text.startswith("*/", i):
                depth -= 1; i += 2
            else:
                i += 1
            continue
        if ml is not None:
            if c == "\\" and ml == '"""':
                i += 1 if text.startswith("\n", i + 1) else 2  # a line continuation keeps its newline
            elif text.startswith(ml, i):
                i += len(ml); ml = None
            else:
                i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth = 1; i += 2
            continue
        m = MULTILINE_OPEN.match(text, i)
        if m:
            ml = '"""' + m.group(1); i = m.end()
            continue
        m = STRING_OPEN.match(text, i)
        if m:
            # A one-line string: skip to its closing quote (interpolations hold no newlines here).
            hashes = m.group(1); i = m.end()
            close = '"' + hashes
            while i < n and text[i] != "\n":
                if text[i] == "\\" and not hashes and not text.startswith("\n", i + 1):
                    i += 2
                    continue
                if text.startswith(close, i):
                    i += len(close)
                    break
                i += 1
            continue
        i += 1
    assert len(out) == text.count("\n") + 1
    return out


def version(s):
    return tuple(int(p) for p in s.split("."))


class Cond:
    """A recursive-descent evaluator of one #if condition: ! && || ( ) and the platform tests."""

    TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\s*\([^()]*\)|[A-Za-z_][A-Za-z0-9_]*)")

    def __init__(self, text, platform, where):
        self.where, self.platform = where, PLATFORMS[platform]
        text = re.sub(r"//.*$", "", text).strip()
        self.toks, pos = [], 0
        while pos < len(text):
            m = self.TOKEN.match(text, pos)
            if not m:
                raise ViewError(f"{where}: cannot read the condition '{text}'")
            self.toks.append(m.group(1)); pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        if not self.toks:
            raise ViewError(f"{where}: empty #if condition")
        self.i = 0

    def value(self):
        v = self.disjunction()
        if self.i != len(self.toks):
            raise ViewError(f"{self.where}: unexpected '{self.toks[self.i]}' in the condition")
        return v

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.peek(); self.i += 1
        return t

    def disjunction(self):
        v = self.conjunction()
        while self.peek() == "||":
            self.take(); v = self.conjunction() or v
        return v

    def conjunction(self):
        v = self.unary()
        while self.peek() == "&&":
            self.take(); v = self.unary() and v
        return v

    def unary(self):
        t = self.take()
        if t == "!":
            return not self.unary()
        if t == "(":
            v = self.disjunction()
            if self.take() != ")":
                raise ViewError(f"{self.where}: unbalanced parentheses")
            return v
        if t is None:
            raise ViewError(f"{self.where}: the condition ends too early")
        return self.atom(t)

    def atom(self, t):
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*\(\s*(.*?)\s*\)", t)
        if not m:
            if t in ("true", "false"):
                return t == "true"
            if t in FLAGS:
                return FLAGS[t]
            raise ViewError(f"{self.where}: unknown condition '{t}' (add it to ifview.py on purpose)")
        fn, arg = m.group(1), m.group(2)
        if fn == "os" and arg in KNOWN_OS:
            return arg in self.platform["os"]
        if fn == "canImport":
            module = arg.split(",")[0].strip()
            if module in KNOWN_MODULES:
                return module in self.platform["canImport"]
        if fn == "arch" and arg in KNOWN_ARCH:
            return arg == "arm64"
        if fn == "targetEnvironment" and arg in ("simulator", "macCatalyst"):
            return False
        if fn in ("compiler", "swift"):
            vm = re.fullmatch(r"(>=|<)\s*(\d+(?:\.\d+)*)", arg)
            if vm:
                ge = SWIFT_VERSION >= version(vm.group(2))
                return ge if vm.group(1) == ">=" else not ge
        raise ViewError(f"{self.where}: unknown condition '{t}' (add it to ifview.py on purpose)")


def view(path, platform):
    text = open(path, encoding="utf-8").read()
    if "#if" not in text:
        return text
    lines = text.split("\n")
    in_code = code_lines(text)
    out = []
    # Per open #if: [this branch active, some branch already taken, enclosing region active].
    stack = []
    active = True
    for number, line in enumerate(lines, 1):
        m = DIRECTIVE.match(line) if in_code[number - 1] else None
        if not m:
            out.append(line if active else "")
            continue
        kind, rest = m.group(1), m.group(2)
        where = f"{path}:{number}"
        if kind == "if":
            v = Cond(rest, platform, where).value()
            stack.append([v, v, active])
        elif not stack:
            raise ViewError(f"{where}: #{kind} without #if")
        elif kind == "elseif":
            v = Cond(rest, platform, where).value()
            top = stack[-1]
            top[0] = v and not top[1]
            top[1] = top[1] or v
        elif kind == "else":
            top = stack[-1]
            top[0] = not top[1]
            top[1] = True
        else:
            stack.pop()
        active = all(s[0] for s in stack)
        out.append("")
    if stack:
        raise ViewError(f"{path}:{len(lines)}: {len(stack)} #if without #endif")
    return "\n".join(out)


# On a Mac, Foundation is one module that also carries URLSession and XMLParser (Linux's
# FoundationNetworking, FoundationXML) and re-exports Darwin; the view's `import Foundation` says so.
FOUNDATION_IMPORT = re.compile(r"^([ \t]*(?:@\w+[ \t]+)*import[ \t]+Foundation)[ \t]*$", re.M)


def darwin_imports(text):
    """The view's imports as a Mac resolves them, on the same lines."""
    return FOUNDATION_IMPORT.sub(r"\1; import FoundationNetworking; import FoundationXML; import Darwin", text)


def main(argv):
    platform, out_dir, files = "macos", None, []
    args = iter(argv)
    for a in args:
        if a == "--platform":
            platform = next(args)
        elif a == "--out-dir":
            out_dir = next(args)
        else:
            files.append(a)
    status = 0
    for f in files:
        try:
            text = darwin_imports(view(f, platform))
        except ViewError as e:
            # The compiler's shape, "FILE:LINE: error: …", so it reads like the build's errors.
            where, _, message = str(e).partition(": ")
            print(f"{where}: error: {message}", file=sys.stderr)
            status = 1
            continue
        if out_dir is None:
            sys.stdout.write(text)
        else:
            dst = os.path.join(out_dir, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            old = open(dst, encoding="utf-8").read() if os.path.exists(dst) else None
            if old != text:  # unchanged files keep their time stamp, so rebuilds stay incremental
                with open(dst, "w", encoding="utf-8") as fh:
                    fh.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
