#!/usr/bin/env python3
"""Writes the Darwin view of a package: a scratch package with the same targets, whose sources are
the macOS (or iOS) compiler's view of the originals (ifview.py), built against the stand-in modules.

    make-package.py --platform macos|ios --dump DUMP.json --repo ROOT --out PKG [--only T,T…]
                    [--example NAME:DUMP.json]…

DUMP.json is `swift package dump-package` of ROOT (and of Examples/NAME, whose targets join the
scratch package, their product dependencies turned into the products' targets). Every Swift file under a
target's folder is found by globbing, as SwiftPM does. --only keeps those targets and what they depend
on (the iOS view: the library products). A dependency with a platform condition that leaves the view's
platform out (CEpoll: `.when(platforms: [.linux])`) is dropped. Every target depends on the stand-ins
(stand-ins/*), since the view's `import Foundation` carries Darwin with it, as on a Mac.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ifview  # noqa: E402

STAND_INS = os.path.join(HERE, "stand-ins")
KINDS = {"regular": ".target", "executable": ".executableTarget", "test": ".testTarget"}


def target_path(t):
    if t.get("path"):
        return t["path"]
    return os.path.join("Tests" if t["type"] == "test" else "Sources", t["name"])


def dependency(d, platform, package_of_root):
    """A dependency as Package.swift spells it, or None when the view's platform leaves it out."""
    kind, spec = next(iter(d.items()))
    condition = spec[-1]
    if condition and platform not in condition.get("platformNames", []):
        return None
    if kind in ("byName", "target"):
        return json.dumps(spec[0])
    if kind == "product" and spec[1] == package_of_root:
        return json.dumps(spec[0])  # the product's target, by name: the example joins the root package
    raise SystemExit(f"make-package: unknown dependency kind {kind}")


def closure(targets, roots):
    by_name = {t["name"]: t for t in targets}
    keep, todo = set(), list(roots)
    while todo:
        n = todo.pop()
        if n in keep or n not in by_name:
            continue
        keep.add(n)
        for d in by_name[n]["dependencies"]:
            spec = next(iter(d.values()))
            todo.append(spec[0])
    return [t for t in targets if t["name"] in keep]


def swift_files(repo, folder, excludes):
    root = os.path.join(repo, folder)
    skip = [os.path.join(root, e) for e in excludes]
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) not in skip)
        for f in sorted(filenames):
            if f.endswith(".swift") and os.path.join(dirpath, f) not in skip:
                yield os.path.relpath(os.path.join(dirpath, f), repo)


WRITTEN = set()


def write(path, text):
    """Writes only a changed file, so an unchanged one keeps its time stamp and the build stays incremental."""
    WRITTEN.add(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def write_targets(dump, repo, out, platform, stand_in_dep, errors):
    """The views of the targets' sources under out; returns the targets' Package.swift lines."""
    targets = [t for t in dump["targets"] if t["type"] in KINDS]  # a system library (CEpoll) is Linux's only
    for t in targets:
        for rel in swift_files(repo, target_path(t), t.get("exclude", [])):
            try:
                text = ifview.view(os.path.join(repo, rel), platform)
            except ifview.ViewError as e:
                errors.append(str(e).replace(repo + "/", "", 1))
                continue
            write(os.path.join(out, rel), ifview.darwin_imports(text))
    lines = []
    for t in targets:
        folder = target_path(t)
        deps = [d for d in (dependency(d, platform, "mock-server") for d in t["dependencies"]) if d]
        deps += stand_in_dep
        # Only the excluded folders the view has (Routes leaves out the folders of the targets under it).
        excludes = [e for e in t.get("exclude", []) if os.path.exists(os.path.join(out, folder, e))]
        lines.append('        %s(name: %s, dependencies: [%s], path: %s, exclude: %s),' % (
            KINDS[t["type"]], json.dumps(t["name"]), ", ".join(deps), json.dumps(folder), json.dumps(excludes)))
    return lines


def main(argv):
    args = dict(zip(argv[0::2], argv[1::2]))
    examples = [v for k, v in zip(argv[0::2], argv[1::2]) if k == "--example"]
    platform, repo, out = args["--platform"], os.path.abspath(args["--repo"]), os.path.abspath(args["--out"])
    dump = json.load(open(args["--dump"]))
    if "--only" in args:
        dump["targets"] = closure(dump["targets"], args["--only"].split(","))
    errors = []
    stand_ins = sorted(os.listdir(STAND_INS))
    for m in stand_ins:
        src = os.path.join(STAND_INS, m)
        for dirpath, _, filenames in os.walk(src):
            for f in filenames:
                rel = os.path.relpath(os.path.join(dirpath, f), src)
                write(os.path.join(out, "StandIns", m, rel), open(os.path.join(dirpath, f), encoding="utf-8").read())
    stand_in_deps = [json.dumps(m) for m in stand_ins]
    targets = write_targets(dump, repo, out, platform, stand_in_deps, errors)
    # An example's targets join the view's package (its product dependencies become the products'
    # targets), so they reuse the modules built once rather than building the package again.
    for spec in examples:
        name, dump_path = spec.split(":", 1)
        ex = json.load(open(dump_path))
        prefix = os.path.join("Examples", name)
        for t in ex["targets"]:
            t["path"] = os.path.join(prefix, target_path(t))
        clash = {t["name"] for t in ex["targets"]} & {t["name"] for t in dump["targets"]}
        if clash:
            raise SystemExit(f"make-package: {name} has targets named like the package's: {clash}")
        targets += write_targets(ex, repo, out, platform, stand_in_deps, errors)
    # A Swift stand-in (Darwin) re-exports the C ones (CDarwin: a folder with include/).
    c_stand_ins = [m for m in stand_ins if os.path.isdir(os.path.join(STAND_INS, m, "include"))]
    targets += ['        .target(name: %s, dependencies: [%s], path: "StandIns/%s"),' % (
        json.dumps(m), "" if m in c_stand_ins else ", ".join(map(json.dumps, c_stand_ins)), m) for m in stand_ins]
    products = ['        .library(name: %s, targets: [%s]),' % (json.dumps(p["name"]), ", ".join(map(json.dumps, p["targets"])))
                for p in dump["products"] if "library" in p["type"]]
    products += ['        .library(name: %s, targets: [%s]),' % (json.dumps(m), json.dumps(m)) for m in stand_ins]
    write(os.path.join(out, "Package.swift"), package_swift(dump, "mock-server", targets, products))
    # A file gone from the repository (or from --only) leaves the view too.
    for dirpath, _, filenames in os.walk(out):
        for f in filenames:
            path = os.path.join(dirpath, f)
            if path not in WRITTEN and (f.endswith(".swift") or "/StandIns/" in path):
                os.remove(path)
    if errors:
        for e in errors:
            where, _, message = e.partition(": ")
            print(f"{where}: error: {message}", file=sys.stderr)
        return 1
    return 0


def package_swift(dump, name, targets, products):
    # `.macOS(.v15)`, `.iOS(.v16_4)`: the spelling darwin-availability.sh reads the floors from.
    platforms = ", ".join('.%s(.v%s)' % ({"macos": "macOS", "ios": "iOS"}[p["platformName"]],
                                         p["version"].removesuffix(".0").replace(".", "_"))
                          for p in dump["platforms"])
    modes = ", ".join('.version("%s")' % v for v in dump.get("swiftLanguageVersions") or ["6"])
    return ("// swift-tools-version:6.0\n"
            "// Generated by scripts/darwin-view/make-package.py: the Darwin view of the package. Do not edit.\n"
            "import PackageDescription\n\n"
            "let package = Package(\n"
            "    name: %s,\n"
            "    platforms: [%s],\n"
            "    products: [\n%s\n    ],\n"
            "    targets: [\n%s\n    ],\n"
            "    swiftLanguageModes: [%s]\n)\n") % (json.dumps(name), platforms, "\n".join(products),
                                               "\n".join(targets), modes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
