"""Derives requests from each real WireMock folder's mappings (Tests/WireMockConformance/real-folders).

For every mapping of FOLDER/mappings/**/*.json (a file holds one mapping or {"mappings": [...]}),
one request WireMock should match: its method (GET for ANY or none), its url / urlPath / a string
its urlPattern or urlPathPattern matches, its query parameters, headers and cookies (equalTo,
contains, matches, absent...), basic-auth credentials, and a body satisfying its bodyPatterns
(equalTo, contains, equalToJson, equalToXml, matches). What cannot be built simply (matchesJsonPath,
matchesXPath, a regular expression with look-arounds or back references, and/or, binaryEqualTo...)
is listed under "skipped" with its reason. Plus one request no mapping should match, per folder.

Writes FOLDER/requests.json (committed, so CI compares the same requests every run; run this again
after changing a folder). Deterministic: files in sorted order, mappings in file order.
Usage: python3 scripts/real-folders-requests.py [Tests/WireMockConformance/real-folders]
"""
import json, os, re, sys
import urllib.parse

try:
    import re._parser as sre_parse  # Python 3.11+
    import re._constants as sre_constants
except ImportError:  # pragma: no cover - older Pythons
    import sre_parse, sre_constants

UNMATCHED_PATH = "/__real-folders-unmatched__/no-mapping-matches-this"
SAFE = "abcxyz0123456789"


class Skip(Exception):
    pass


def first_char(items, avoid=""):
    """A character an [...] class admits: its first literal or range start (negated classes: a letter outside)."""
    negate = False
    chars = []
    for op, av in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            chars.append(chr(av))
        elif op is sre_constants.RANGE:
            chars.append(chr(av[0]))
        elif op is sre_constants.CATEGORY:
            chars.append({sre_constants.CATEGORY_DIGIT: "0", sre_constants.CATEGORY_WORD: "a",
                          sre_constants.CATEGORY_SPACE: " "}.get(av, "a"))
        else:
            raise Skip(f"character class item {op}")
    if negate:
        for c in SAFE:
            if c not in chars:
                return c
        raise Skip("negated class")
    for c in chars:
        if c not in avoid:
            return c
    if chars:
        return chars[0]
    raise Skip("empty class")


def gen(parsed):
    out = []
    for op, av in parsed:
        if op is sre_constants.LITERAL:
            out.append(chr(av))
        elif op is sre_constants.ANY:
            out.append("x")
        elif op is sre_constants.IN:
            out.append(first_char(av, avoid=" \t/?#&"))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            lo, _hi, sub = av
            out.append(gen(sub) * lo)
        elif op is sre_constants.SUBPATTERN:
            out.append(gen(av[-1]))
        elif op is sre_constants.BRANCH:
            out.append(gen(av[1][0]))
        elif op is sre_constants.AT:
            pass  # ^ and $ anchors
        elif op is sre_constants.CATEGORY:
            out.append({sre_constants.CATEGORY_DIGIT: "0", sre_constants.CATEGORY_WORD: "a"}.get(av, "a"))
        elif op is sre_constants.NOT_LITERAL:
            out.append(next(c for c in SAFE if ord(c) != av))
        else:
            raise Skip(f"regular expression construct {op}")
    return "".join(out)


def string_matching(pattern):
    """A short string the Java regex `pattern` matches in full, or Skip."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, Exception) as e:  # Java syntax Python does not read
        raise Skip(f"regex {pattern!r} not readable here ({e})")
    s = gen(parsed)
    if not re.fullmatch(pattern, s, re.DOTALL):
        raise Skip(f"regex {pattern!r}: generated {s!r} does not match")
    return s


def value_for(matcher, what):
    """A value satisfying a WireMock string matcher; None when the matcher wants it absent."""
    if not isinstance(matcher, dict):
        return str(matcher)
    if matcher.get("absent") is True:
        return None
    for key in ("equalTo", "contains", "equalToIgnoreCase"):
        if key in matcher:
            return str(matcher[key])
    if "matches" in matcher:
        return string_matching(matcher["matches"])
    if "doesNotMatch" in matcher:
        for v in ("x", "none", "0"):
            if not re.fullmatch(matcher["doesNotMatch"], v):
                return v
        raise Skip(f"{what}: doesNotMatch {matcher['doesNotMatch']!r}")
    if "hasExactly" in matcher or "includes" in matcher:
        raise Skip(f"{what}: multi-value matcher")
    raise Skip(f"{what}: matcher {sorted(matcher)}")


def body_for(patterns, headers):
    contains = []
    body = None
    for p in patterns:
        if "equalToJson" in p:
            v = p["equalToJson"]
            text = v if isinstance(v, str) else json.dumps(v)
            body = text if body is None or body == text else _conflict()
            headers.setdefault("Content-Type", "application/json")
        elif "equalTo" in p:
            body = p["equalTo"] if body is None or body == p["equalTo"] else _conflict()
        elif "equalToXml" in p:
            body = p["equalToXml"] if body is None or body == p["equalToXml"] else _conflict()
            headers.setdefault("Content-Type", "application/xml")
        elif "contains" in p:
            contains.append(p["contains"])
        elif "matches" in p:
            s = string_matching(p["matches"])
            body = s if body is None or body == s else _conflict()
        elif "absent" in p:
            continue
        else:
            raise Skip(f"body pattern {sorted(k for k in p if k not in ('caseInsensitive', 'ignoreArrayOrder', 'ignoreExtraElements'))}")
    if contains:
        if body is not None:
            if not all(c in body for c in contains):
                _conflict()
        else:
            body = "".join(contains)
    return body


def _conflict():
    raise Skip("body patterns that no single body satisfies simply")


def request_for(mapping):
    req = mapping.get("request", {})
    method = req.get("method", "ANY")
    if method == "ANY":
        method = "GET"
    headers = {}
    if "url" in req:
        url = req["url"]
        path, query = url, None
    elif "urlPath" in req:
        path, query = req["urlPath"], []
    elif "urlPattern" in req:
        path, query = string_matching(req["urlPattern"]), None
    elif "urlPathPattern" in req:
        path, query = string_matching(req["urlPathPattern"]), []
    else:
        path, query = "/", []
    if "url" not in req:
        params = []
        for name, matcher in sorted(req.get("queryParameters", {}).items()):
            v = value_for(matcher, f"query parameter {name}")
            if v is not None:
                params.append((name, v))
        if params:
            if query is None:  # urlPattern already carries any query string: adding one would change it
                raise Skip("queryParameters with urlPattern")
            path += "?" + urllib.parse.urlencode(params)
    elif req.get("queryParameters"):
        raise Skip("queryParameters with url")
    for name, matcher in sorted(req.get("headers", {}).items()):
        v = value_for(matcher, f"header {name}")
        if v is not None:
            headers[name] = v
    cookies = []
    for name, matcher in sorted(req.get("cookies", {}).items()):
        v = value_for(matcher, f"cookie {name}")
        if v is not None:
            cookies.append(f"{name}={v}")
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    if "basicAuthCredentials" in req:
        import base64
        c = req["basicAuthCredentials"]
        headers["Authorization"] = "Basic " + base64.b64encode(f"{c['username']}:{c['password']}".encode()).decode()
    for unsupported in ("multipartPatterns", "customMatcher", "host", "port", "scheme", "clientIp"):
        if unsupported in req:
            raise Skip(f"request {unsupported}")
    body = body_for(req.get("bodyPatterns", []), headers)
    out = {"method": method, "url": path}
    if headers:
        out["headers"] = headers
    if body is not None:
        out["body"] = body
    return out


def mapping_files(folder):
    root = os.path.join(folder, "mappings")
    found = []
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            if f.endswith(".json"):
                found.append(os.path.relpath(os.path.join(dirpath, f), folder))
    return sorted(found)


def derive(folder):
    requests, skipped, unreadable = [], [], []
    count = 0
    for rel in mapping_files(folder):
        try:
            doc = json.load(open(os.path.join(folder, rel), encoding="utf-8"))
        except ValueError as e:
            unreadable.append({"file": rel, "reason": str(e)})
            continue
        mappings = doc["mappings"] if isinstance(doc, dict) and "mappings" in doc else [doc]
        for i, m in enumerate(mappings):
            count += 1
            where = f"{rel}#{i}"
            try:
                r = request_for(m)
            except Skip as e:
                skipped.append({"mapping": where, "reason": str(e)})
                continue
            r["mapping"] = where
            requests.append(r)
    requests.append({"mapping": None, "method": "GET", "url": UNMATCHED_PATH, "unmatched": True})
    return {"folder": os.path.basename(os.path.normpath(folder)),
            "generatedBy": "scripts/real-folders-requests.py",
            "mappings": count, "requests": requests, "skipped": skipped, "unreadable": unreadable}


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "Tests/WireMockConformance/real-folders"
    total_m = total_r = total_s = 0
    for name in sorted(os.listdir(top)):
        folder = os.path.join(top, name)
        if not os.path.isdir(os.path.join(folder, "mappings")):
            continue
        doc = derive(folder)
        with open(os.path.join(folder, "requests.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        total_m += doc["mappings"]
        total_r += len(doc["requests"])
        total_s += len(doc["skipped"])
        print(f"{name}: {doc['mappings']} mappings, {len(doc['requests'])} requests (1 unmatched), "
              f"{len(doc['skipped'])} skipped, {len(doc['unreadable'])} unreadable files")
    print(f"total: {total_m} mappings, {total_r} requests, {total_s} skipped")


if __name__ == "__main__":
    main()
