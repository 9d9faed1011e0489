#!/usr/bin/env python3
"""The targets of a package that no other target depends on, one a line: building each of them with
`swift build --target` builds every module of the package without linking the test products.

    leaves.py PACKAGE_DIR
"""
import json
import subprocess
import sys

dump = json.loads(subprocess.check_output(["swift", "package", "--package-path", sys.argv[1], "dump-package"]))
used = {next(iter(d.values()))[0] for t in dump["targets"] for d in t["dependencies"]}
print("\n".join(t["name"] for t in dump["targets"] if t["name"] not in used))
