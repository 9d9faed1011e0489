#!/usr/bin/env python3
"""Lists the public symbols of symbol graphs that have no doc comment; exits 1 when there is one.

A symbol that inherits its documentation (a protocol requirement's implementation: `sourceOrigin`)
or that the compiler made (no source location: a synthesized `init(from:)`) counts as documented,
as DocC shows it.
"""
import json
import sys

missing = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        graph = json.load(f)
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol.get("docComment") or symbol.get("sourceOrigin") or "location" not in symbol:
            continue
        where = symbol["location"]["uri"].split("/Sources/")[-1]
        line = symbol["location"]["position"]["line"] + 1
        missing.append(f"Sources/{where}:{line}: {symbol['kind']['displayName'].lower()} "
                       f"{'.'.join(symbol['pathComponents'])} has no doc comment")
for line in sorted(set(missing)):
    print(line)
sys.exit(1 if missing else 0)
