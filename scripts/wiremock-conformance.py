"""Runs the stub corpus against mock-server and WireMock 2.35.1 and compares the answers.

Both servers share one root folder (mappings/ empty, __files/ from the corpus), start on free
loopback ports, and are reset between cases. Each request's status, body (JSON-equal when both
are JSON, else byte-equal; a regex for random values) and the headers the case's mappings set
must agree; a malformed mapping must be refused (422) by both, and a 'deliberate' one by this
server only. Then PyPI's wiremock admin client drives both. Exits 1 on any difference.

With --real-folders DIR (scripts/wiremock-conformance.sh runs it inside a network namespace of
its own, so proxies and webhooks the folders name cannot reach anything): each real WireMock
folder of DIR (Tests/WireMockConformance/real-folders) is loaded by ONE WireMock JVM (its root's
mappings/ and __files/ replaced by the folder's, then POST /__admin/reset, which reloads the
folder from disk as at start) and by a mock-server started on it (--mappings, a copy of the
folder); the folder's requests.json (scripts/real-folders-requests.py) goes to both. "Did not
start" is a result, not a crash. With --wiremock-tests FILE or FOLDER: cases translated from WireMock's
own tests, each step's expectation checked on both. Thresholds: --min-real-same-percent,
--min-wiremock-tests-percent.
"""
import argparse, http.client, json, os, re, shutil, socket, subprocess, sys, tempfile, time

import requests
from wiremock.constants import Config
from wiremock.resources.mappings import Mapping, MappingRequest, MappingResponse, HttpMethods
from wiremock.resources.mappings.resource import Mappings
from wiremock.resources.requests.resource import Requests
from wiremock.resources.near_misses import NearMissMatchPatternRequest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(base, proc, what, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"wiremock-conformance: {what} exited ({proc.returncode})")
        try:
            if requests.get(base + "/__admin/mappings", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise SystemExit(f"wiremock-conformance: {what} did not answer within {seconds} s")


def send(port, req):
    """(status, headers as a lower-cased dict of lists, body bytes), or ('error', type) when no valid answer came."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        body = req.get("body")
        headers = dict(req.get("headers", {}))
        conn.request(req["method"], req["url"], body=body.encode() if body is not None else None, headers=headers)
        r = conn.getresponse()
        data = r.read()
        hdrs = {}
        for k, v in r.getheaders():
            hdrs.setdefault(k.lower(), []).append(v)
        return r.status, hdrs, data
    except (http.client.HTTPException, OSError) as e:
        return "error", {}, b"no valid HTTP response"
    finally:
        conn.close()


def same_body(a, b):
    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return a == b


def header_values(hdrs, name):
    values = hdrs.get(name.lower(), [])
    # WireMock sends a repeated header as separate fields; so does this server.
    return sorted(v for value in values for v in [value])


def reset(base):
    requests.delete(base + "/__admin/mappings", headers={"Content-Type": "application/json"}).raise_for_status()
    requests.post(base + "/__admin/scenarios/reset", headers={"Content-Type": "application/json"}).raise_for_status()
    requests.delete(base + "/__admin/requests", headers={"Content-Type": "application/json"}).raise_for_status()
    # POST /__admin/reset keeps the global settings (as WireMock does): a case that sets them must not slow the next.
    requests.put(base + "/__admin/settings", json={}).raise_for_status()


def run_corpus(corpus, mock, wire):
    compared, failures, deliberate = 0, [], []
    unmatched = [0]
    for case in corpus["cases"]:
        name = case["name"]
        for base in (mock, wire):
            reset(base["url"])
        if "malformed" in case or "malformedText" in case:
            text = case.get("malformedText") or json.dumps(case["malformed"])
            got = {}
            for which, base in (("mock", mock), ("wiremock", wire)):
                r = requests.post(base["url"] + "/__admin/mappings", data=text.encode(), headers={"Content-Type": "application/json"})
                got[which] = (r.status_code, r.text)
            compared += 1
            if "deliberate" in case:
                if got["mock"][0] != 422:
                    failures.append(f"{name}: this server answered {got['mock'][0]}, expected 422 ({case['deliberate']})")
                else:
                    deliberate.append(f"{name}: WireMock {got['wiremock'][0]}, here 422 ({case['deliberate']})")
            elif got["mock"][0] != 422 or got["wiremock"][0] != 422:
                failures.append(f"{name}: 422 expected from both, got mock {got['mock']} and WireMock {got['wiremock'][0]}")
            continue
        for base in (mock, wire):
            for m in case["mappings"]:
                r = requests.post(base["url"] + "/__admin/mappings", json=m)
                if r.status_code != 201:
                    failures.append(f"{name}: {base['name']} refused a mapping ({r.status_code}): {r.text[:300]}")
        set_headers = {h for m in case["mappings"] for h in m.get("response", {}).get("headers", {})}
        for i, req in enumerate(case["requests"]):
            a = send(mock["port"], req)
            b = send(wire["port"], req)
            compared += 1
            where = f"{name} [request {i + 1}: {req['method']} {req['url']}]"
            if a[0] != b[0]:
                failures.append(f"{where}: status {a[0]} here, {b[0]} in WireMock (bodies {a[2][:200]!r} / {b[2][:200]!r})")
                continue
            mode = case.get("compare", "body")
            # Unmatched: WireMock's 404 body is its near-miss report; here it is the plain 404 of
            # the path's owner (docs/stubs.md). The status is what a client sees.
            if a[0] == 404 and "matched-stub-id" not in a[1] and "matched-stub-id" not in b[1]:
                unmatched[0] += 1
                mode = "status"
            if mode == "regex":
                for which, got in (("here", a), ("WireMock", b)):
                    if not re.match(case["bodyRegex"], got[2].decode("utf-8", "replace")):
                        failures.append(f"{where}: body {got[2][:100]!r} {which} does not match {case['bodyRegex']}")
            elif mode == "body" and a[0] != "error" and not same_body(a[2], b[2]):
                failures.append(f"{where}: body {a[2][:300]!r} here, {b[2][:300]!r} in WireMock")
            for h in sorted(set_headers):
                if a[0] != "error" and header_values(a[1], h) != header_values(b[1], h):
                    failures.append(f"{where}: header {h}: {header_values(a[1], h)} here, {header_values(b[1], h)} in WireMock")
    deliberate.append(f"{unmatched[0]} unmatched requests: both 404, bodies not compared (WireMock's is its near-miss report)")
    return compared, failures, deliberate


def run_persistence(base, folder):
    """persistent: true, DELETE of a persistent mapping and POST /__admin/mappings/save: the
    answers and the files in the shared mappings folder (each server in turn, so the folder is
    empty again after each)."""
    out, json_type = [], {"Content-Type": "application/json"}
    pid = "0b7e6b4a-3c2d-4f4e-9a51-8d2f7c1e0a11"
    r = requests.post(base + "/__admin/mappings", headers=json_type, data=json.dumps({
        "id": pid, "name": "Persistent Flags", "persistent": True,
        "request": {"method": "GET", "urlPath": "/client/persistent"}, "response": {"status": 200, "body": "kept"}}))
    body = r.json()
    out.append(("persistent create", r.status_code, body.get("id"), body.get("persistent"), body.get("request")))
    out.append(("persistent file", sorted(os.listdir(folder))))
    r = requests.delete(base + "/__admin/mappings/" + pid, headers=json_type)
    out.append(("persistent delete", r.status_code, sorted(os.listdir(folder))))
    sid = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
    requests.post(base + "/__admin/mappings", headers=json_type, data=json.dumps({
        "id": sid, "request": {"method": "GET", "urlPath": "/client/to/save"}, "response": {"status": 200}})).raise_for_status()
    r = requests.post(base + "/__admin/mappings/save", headers=json_type)
    out.append(("save", r.status_code, sorted(os.listdir(folder))))
    out.append(("saved is persistent", requests.get(base + "/__admin/mappings/" + sid).json().get("persistent")))
    r = requests.delete(base + "/__admin/mappings/" + sid, headers=json_type)
    out.append(("saved delete", r.status_code, sorted(os.listdir(folder))))
    return out


def run_client(mock, wire, folder):
    """PyPI wiremock's admin client against both servers: the same calls, the same answers."""
    failures, calls = [], 0
    for base in (mock, wire):
        reset(base["url"])
    results = {}
    for which, base in (("mock", mock), ("wiremock", wire)):
        Config.base_url = base["url"] + "/__admin"
        Config.requests_verify = False
        out = []
        m = Mapping(priority=1, request=MappingRequest(method=HttpMethods.GET, url="/client/hello"),
                    response=MappingResponse(status=200, body="hi from a client"), persistent=False)
        created = Mappings.create_mapping(m)
        out.append(("create", created.request.url, created.response.body))
        listed = Mappings.retrieve_all_mappings()
        out.append(("list", listed.meta.total, [x.request.url for x in listed.mappings]))
        got = Mappings.retrieve_mapping(created.id)
        out.append(("get", got.response.status))
        requests.get(base["url"] + "/client/hello")
        requests.get(base["url"] + "/client/hello")
        requests.get(base["url"] + "/client/other")
        count = Requests.get_matching_request_count(NearMissMatchPatternRequest(url="/client/hello", method="GET"))
        out.append(("count", count.count))
        found = Requests.get_matching_requests(NearMissMatchPatternRequest(url="/client/hello", method="GET"))
        out.append(("find", [r.url for r in found.requests]))
        out.append(("clientIp", [r.client_ip for r in found.requests]))
        all_requests = Requests.get_all_received_requests()
        out.append(("requests", all_requests.meta.total))
        Mappings.delete_mapping(created)
        out.append(("after delete", Mappings.retrieve_all_mappings().meta.total))
        Mappings.create_mapping(m)
        Mappings.delete_all_mappings()
        out.append(("after delete all", Mappings.retrieve_all_mappings().meta.total))
        Requests.reset_request_journal()
        out.append(("journal after reset", Requests.get_all_received_requests().meta.total))
        out += run_persistence(base["url"], folder)
        results[which] = out
    for a, b in zip(results["mock"], results["wiremock"]):
        calls += 1
        if a != b:
            failures.append(f"admin client {a[0]}: {a[1:]} here, {b[1:]} in WireMock")
    return calls, failures


def run_java_client(jar, classes, servers):
    """WireMock 2.35.1's own Java client (Tests/WireMockConformance/java/JavaClientCheck.java) against
    each server: register, editStub, removeStub, resets, scenario state, find and serve events. It
    must pass on WireMock (the check itself is right) and here."""
    failures = []
    for server in servers:
        run = subprocess.run(["java", "-cp", jar + os.pathsep + classes, "JavaClientCheck", str(server["port"])],
                             capture_output=True, text=True, timeout=90)
        for line in run.stdout.splitlines():
            if line.startswith("FAIL") or line.endswith(" failed"):
                print(f"  {server['name']}: {line}")
        if run.returncode != 0:
            failures.append(f"WireMock's Java client against {server['name']}: exit {run.returncode} {run.stderr[-500:]}")
    return failures

# ---------------------------------------------------------------------------------------------
# Real WireMock folders (Tests/WireMockConformance/real-folders) and WireMock's own tests.

# Documented, intentional differences (docs/stubs.md "Deliberate differences"): a request whose
# own mapping uses one of these features is counted as deliberate, not as a difference, when the
# answers differ. Each entry: (label, test on the mapping, the documented reason).
def _uses_other_transformer(m):
    return any(t != "response-template" for t in m.get("response", {}).get("transformers", []))


def _uses_block_helper(m):
    text = json.dumps(m.get("response", {}))
    return "{{#" in text


def _uses_proxy_or_webhook(m):
    return "proxyBaseUrl" in m.get("response", {}) or "postServeActions" in m


def _ties_another(m, everything):
    """Another mapping of the folder with the same request pattern and priority: WireMock answers
    with the one it loaded last, in its file system's listing order (not a documented order);
    this server with the last in name order (docs/stubs.md)."""
    key = (json.dumps(m.get("request", {}), sort_keys=True), m.get("priority", 5), m.get("scenarioName"))
    return sum(1 for o in everything if (json.dumps(o.get("request", {}), sort_keys=True), o.get("priority", 5), o.get("scenarioName")) == key) > 1


REAL_DELIBERATE = [
    ("transformer", lambda m, _all: _uses_other_transformer(m), "only response-template exists here: refused rather than ignored"),
    ("block helper", lambda m, _all: _uses_block_helper(m), "block helpers are not supported: refused when added"),
    ("proxy/webhook", lambda m, _all: _uses_proxy_or_webhook(m), "a proxy's answer is its upstream's and a webhook goes to its receiver, neither of which this isolated run has"),
    ("tie", _ties_another, "two mappings match alike: WireMock's pick follows its file system's listing order"),
]


def read_mappings(folder):
    """{'mappings/x.json#i': mapping} as the request generator numbered them."""
    out = {}
    root = os.path.join(folder, "mappings")
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            if not f.endswith(".json"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), folder)
            try:
                doc = json.load(open(os.path.join(folder, rel), encoding="utf-8"))
            except ValueError:
                continue
            ms = doc["mappings"] if isinstance(doc, dict) and "mappings" in doc else [doc]
            for i, m in enumerate(ms):
                out[f"{rel}#{i}"] = m if isinstance(m, dict) else {}
    return out


def is_json_type(hdrs):
    return any("json" in v.lower() for v in hdrs.get("content-type", []))


def framing(hdrs):
    """How an answer's body was delimited: chunks, a length, or the connection's end."""
    if any("chunked" in v.lower() for v in hdrs.get("transfer-encoding", [])):
        return "chunked"
    return "length" if "content-length" in hdrs else "close"


def same_answer(a, b, header_names):
    """None when a (here) and b (WireMock) agree, else the first difference."""
    if a[0] != b[0]:
        return f"status {a[0]} here, {b[0]} in WireMock (bodies {a[2][:120]!r} / {b[2][:120]!r})"
    if a[0] == "error":
        return None
    if a[0] == 404 and "matched-stub-id" not in a[1] and "matched-stub-id" not in b[1]:
        return None  # unmatched: WireMock's body is its near-miss report (deliberate, docs/stubs.md)
    if framing(a[1]) != framing(b[1]) and a[0] not in (204, 304):
        return f"framing {framing(a[1])} here, {framing(b[1])} in WireMock"
    if is_json_type(a[1]) or is_json_type(b[1]):
        if not same_body(a[2], b[2]):
            return f"body {a[2][:160]!r} here, {b[2][:160]!r} in WireMock"
    elif a[2] != b[2]:
        return f"body {a[2][:160]!r} here, {b[2][:160]!r} in WireMock"
    for h in sorted(header_names):
        theirs = header_values(b[1], h)
        # WireMock's Jetty (its gzip handler) adds User-Agent to a Vary the mapping sets: Jetty's, not the mapping's.
        if h.lower() == "vary":
            theirs = [v for v in theirs if v.strip().lower() != "user-agent"]
        if header_values(a[1], h) != theirs:
            return f"header {h}: {header_values(a[1], h)} here, {header_values(b[1], h)} in WireMock"
    return None


def replace_root(root, folder):
    for sub in ("mappings", "__files"):
        shutil.rmtree(os.path.join(root, sub), ignore_errors=True)
        src = os.path.join(folder, sub)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(root, sub))
        else:
            os.makedirs(os.path.join(root, sub))


def admin_total(base):
    r = requests.get(base + "/__admin/mappings", timeout=10)
    r.raise_for_status()
    return r.json().get("meta", {}).get("total", len(r.json().get("mappings", [])))


def start_mock(binary, folder, log_path, seconds=20):
    """(proc, base, None) once it answers, or (None, None, why) when it exits or never answers."""
    port = free_port()
    log = open(log_path, "w")
    proc = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", "--mappings", folder],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.close()
            text = open(log_path, errors="replace").read().strip().splitlines()
            return None, None, f"exit {proc.returncode}: {(text[-1] if text else '')[:300]}"
        try:
            if requests.get(base + "/__admin/mappings", timeout=1).status_code == 200:
                return proc, base, None
        except requests.RequestException:
            pass
        time.sleep(0.05)
    stop([proc])
    return None, None, f"no answer within {seconds} s"


def stop(procs):
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def own_base_as_placeholder(answer, port):
    """The answer with this server's own base URL (`http://127.0.0.1:PORT`, what
    `{{request.baseUrl}}` renders) in its body written as `http://BASE`."""
    if port is None or not isinstance(answer[2], bytes):
        return answer
    return (answer[0], answer[1], answer[2].replace(f"http://127.0.0.1:{port}".encode(), b"http://BASE"))


def refused_keys(base, folder):
    """The `mappings/x.json#i` keys of the mappings this server refused (GET /__admin/mappings/refused):
    the file relative to the folder, and the index its JSON pointer names (`/mappings/2/…`, `/2/…`; 0 for a single mapping)."""
    keys = set()
    try:
        listed = requests.get(base + "/__admin/mappings/refused", timeout=10).json().get("refused", [])
    except (requests.RequestException, ValueError):
        return keys
    for r in listed:
        path = os.path.relpath(r.get("file", ""), folder)
        match = re.match(r"^/(?:mappings/)?(\d+)(?:/|$)", r.get("pointer", "") or "")
        keys.add(f"{path}#{int(match.group(1)) if match else 0}")
    return keys


def run_real_folders(top, binary, wire, wire_root, work):
    """Per folder and in total: started or not, mappings loaded, requests compared, same."""
    totals = {"folders": 0, "started": 0, "mappings": 0, "wm_loaded": 0, "loaded": 0, "compared": 0,
              "same": 0, "deliberate": 0, "skipped": 0, "not_comparable": 0, "to_loaded": 0, "same_loaded": 0}
    differences = []
    for name in sorted(os.listdir(top)):
        folder = os.path.join(top, name)
        req_file = os.path.join(folder, "requests.json")
        if not os.path.isfile(req_file):
            continue
        doc = json.load(open(req_file, encoding="utf-8"))
        mappings = read_mappings(folder)
        totals["folders"] += 1
        totals["mappings"] += doc["mappings"]
        totals["skipped"] += len(doc["skipped"])
        # WireMock: the folder becomes its root's content, then reset reloads it from disk.
        replace_root(wire_root, folder)
        r = requests.post(wire["url"] + "/__admin/reset", timeout=60)
        wm_loaded = admin_total(wire["url"])
        wm_note = "" if r.status_code == 200 else f" (WireMock's reset answered {r.status_code}: {r.text[:200]})"
        totals["wm_loaded"] += wm_loaded
        # This server: started on a copy of the folder (it may write to a folder it serves).
        copy = os.path.join(work, "mock-" + name)
        shutil.copytree(folder, copy)
        proc, base, why = start_mock(binary, copy, os.path.join(work, f"mock-{name}.log"))
        loaded = admin_total(base) if proc else 0
        if proc:
            totals["started"] += 1
            totals["loaded"] += loaded
        port = int(base.rsplit(":", 1)[1]) if proc else None
        refused = refused_keys(base, copy) if proc else set()
        same = deliberate = compared = not_comparable = 0
        try:
            for req in doc["requests"]:
                m = mappings.get(req.get("mapping") or "", {})
                b = send(wire["port"], req)
                if wm_note and b[0] == "error":
                    not_comparable += 1
                    continue
                a = send(port, req) if proc else ("did not start", {}, b"")
                compared += 1
                set_headers = set(m.get("response", {}).get("headers", {}) or {})
                # `{{request.baseUrl}}` renders each server's own address: compare it as one.
                a = own_base_as_placeholder(a, port)
                b = own_base_as_placeholder(b, wire["port"])
                diff = same_answer(a, b, set_headers)
                label = None if diff is None else next((lab for lab, test, _why in REAL_DELIBERATE if test(m, list(mappings.values()))), None)
                # Requests whose own mapping loaded here, deliberate ones aside (gated at 95 %).
                if proc and req.get("mapping") and req["mapping"] not in refused and not label:
                    totals["to_loaded"] += 1
                    totals["same_loaded"] += diff is None
                if diff is None:
                    same += 1
                    continue
                if label:
                    deliberate += 1
                elif proc:  # a folder that did not start is reported once, on its own line
                    differences.append(f"{name} {req.get('mapping') or '(unmatched)'} [{req['method']} {req['url'][:100]}]: {diff}")
        finally:
            if proc:
                stop([proc])
        for k, v in (("compared", compared), ("same", same), ("deliberate", deliberate), ("not_comparable", not_comparable)):
            totals[k] += v
        state = "started" if proc else f"did not start ({why})"
        print(f"  {name}: {doc['mappings']} mappings, WireMock loaded {wm_loaded}{wm_note}; here {state}, "
              f"loaded {loaded}, refused {doc['mappings'] - loaded if proc else doc['mappings']}; "
              f"{compared} requests compared, {same} same as WireMock, {deliberate} deliberate"
              + (f", {len(doc['skipped'])} mapping(s) without a derived request" if doc["skipped"] else "")
              + (f", {not_comparable} not comparable" if not_comparable else ""))
    return totals, differences


def json_at(value, pointer, missing=None):
    """The value at a JSON pointer ("/a/0/b"), else `missing`."""
    cur = value
    for part in [p for p in pointer.split("/") if p]:
        if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return missing
    return cur


def check_expect(got, expect):
    """None when the answer meets the test's expectation, else what differs."""
    status, hdrs, body = got
    if "status" in expect and status != expect["status"]:
        return f"status {status}, expected {expect['status']}"
    text = body.decode("utf-8", "replace")
    if "body" in expect and text != expect["body"]:
        return f"body {text[:120]!r}, expected {expect['body'][:120]!r}"
    if "bodyMatches" in expect and not re.fullmatch(expect["bodyMatches"], text, re.DOTALL):
        return f"body {text[:120]!r} does not match {expect['bodyMatches']!r}"
    if "bodyContains" in expect:
        for piece in expect["bodyContains"]:
            if piece not in text:
                return f"body {text[:160]!r} lacks {piece!r}"
    if any(k in expect for k in ("json", "jsonHas", "jsonLength", "jsonAbsent")):
        try:
            value = json.loads(body)
        except ValueError:
            return f"body {text[:120]!r} is not JSON"
        if "json" in expect and value != expect["json"]:
            return f"JSON {text[:160]!r}, expected {json.dumps(expect['json'])[:160]}"
        absent = object()
        for pointer, want in expect.get("jsonHas", {}).items():
            cur = json_at(value, pointer, missing=absent)
            if cur is absent:
                return f"JSON has no {pointer} ({text[:160]!r})"
            if want != "*" and cur != want:
                return f"JSON {pointer} is {cur!r}, expected {want!r}"
        for pointer, want in expect.get("jsonLength", {}).items():
            cur = json_at(value, pointer)
            if not isinstance(cur, (list, dict)) or len(cur) != want:
                return f"JSON {pointer} has {len(cur) if isinstance(cur, (list, dict)) else 'no'} items, expected {want} ({text[:160]!r})"
        for pointer in expect.get("jsonAbsent", []):
            if json_at(value, pointer, missing=KeyError) is not KeyError:
                return f"JSON has {pointer}, expected none ({text[:160]!r})"
    for name, want in expect.get("headers", {}).items():
        have = header_values(hdrs, name)
        if want is None and have:
            return f"header {name} {have}, expected none"
        if want is not None and (not have or want not in have[0]):
            return f"header {name} {have}, expected {want!r}"
    # Every value of a repeated field, in order sent (the `headers` check reads the first only).
    for name, want in expect.get("headerValues", {}).items():
        have = [v for v in hdrs.get(name.lower(), [])]
        if have != want:
            return f"header {name} {have}, expected {want!r}"
    return None


def load_wiremock_tests(path, case_filter=None):
    """One corpus from a file or from every *.json of a folder (in name order), names unique."""
    files = [os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith(".json")] if os.path.isdir(path) else [path]
    cases, seen = [], set()
    for f in files:
        for case in json.load(open(f, encoding="utf-8"))["cases"]:
            if case["name"] in seen:
                sys.exit(f"wiremock-conformance: case {case['name']!r} in {f} is named twice")
            seen.add(case["name"])
            if case_filter is None or re.search(case_filter, case["name"]) or re.search(case_filter, case["source"]):
                cases.append(case)
    return {"cases": cases}


def run_wiremock_tests(corpus, servers):
    """Each case on each server after a reset: every step's answer must meet its expectation."""
    results = {}
    for server in servers:
        passed = {}
        for case in corpus["cases"]:
            reset(server["url"])
            problem = None
            for i, step in enumerate(case["steps"]):
                req = dict(step)
                if "json" in step:
                    req["body"] = json.dumps(step["json"])
                    req.setdefault("headers", {})["Content-Type"] = "application/json"
                got = send(server["port"], req)
                if got[0] == "error":
                    problem = f"step {i + 1} {step['method']} {step['url']}: no valid answer"
                    break
                problem = check_expect(got, step.get("expect", {}))
                if problem:
                    problem = f"step {i + 1} {step['method']} {step['url']}: {problem}"
                    break
            passed[case["name"]] = problem
        results[server["name"]] = passed
    return results


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mock-server", required=True)
    p.add_argument("--jar", required=True)
    p.add_argument("--corpus")
    p.add_argument("--java-client", help="folder of the compiled JavaClientCheck class")
    p.add_argument("--real-folders", help="folder of real WireMock folders, each with requests.json")
    p.add_argument("--wiremock-tests", help="JSON cases translated from WireMock's own tests: a file, or a folder of them (each *.json, by name)")
    p.add_argument("--case-filter", help="with --wiremock-tests: only the cases whose name or source this regular expression finds")
    p.add_argument("--min-real-same-percent", type=float, default=0.0,
                   help="least share of real-folder requests answered as WireMock does (deliberate ones aside)")
    p.add_argument("--min-overall-same-percent", type=float, default=0.0,
                   help="least share of all real-folder requests answered as WireMock does (deliberate ones counted as different)")
    p.add_argument("--min-loaded-same-percent", type=float, default=0.0,
                   help="least share of the requests to mappings this server loaded answered as WireMock does")
    p.add_argument("--min-wiremock-tests-percent", type=float, default=0.0,
                   help="least share, of the translated WireMock test cases WireMock passes, that pass here")
    p.add_argument("--require-isolated-network", action="store_true",
                   help="refuse to run unless this process's network namespace has only loopback")
    args = p.parse_args()
    if args.real_folders or args.wiremock_tests:
        return isolated_main(args)
    if not args.corpus:
        p.error("--corpus, --real-folders or --wiremock-tests is required")
    corpus = json.load(open(args.corpus))
    work = tempfile.mkdtemp(prefix="wiremock-conformance.")
    os.makedirs(os.path.join(work, "mappings"))
    for name, text in corpus["files"].items():
        path = os.path.join(work, "__files", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").write(text)
    mock_port, wire_port = free_port(), free_port()
    procs = []
    try:
        wire_proc = subprocess.Popen(["java", "-jar", args.jar, "--port", str(wire_port), "--bind-address", "127.0.0.1",
                                      "--root-dir", work, "--disable-banner", "--local-response-templating"],
                                     stdout=open(os.path.join(work, "wiremock.log"), "w"), stderr=subprocess.STDOUT)
        procs.append(wire_proc)
        mock_proc = subprocess.Popen([args.mock_server, "--port", str(mock_port), "--log-level", "warning", "--mappings", work],
                                     stdout=open(os.path.join(work, "mock.log"), "w"), stderr=subprocess.STDOUT)
        procs.append(mock_proc)
        mock = {"name": "mock-server", "port": mock_port, "url": f"http://127.0.0.1:{mock_port}"}
        wire = {"name": "WireMock", "port": wire_port, "url": f"http://127.0.0.1:{wire_port}"}
        wait_until_up(mock["url"], mock_proc, "mock-server")
        wait_until_up(wire["url"], wire_proc, "WireMock", seconds=60)
        pairs = sum(len(c.get("requests", [])) or 1 for c in corpus["cases"])
        print(f"wiremock-conformance: corpus {args.corpus}: {len(corpus['cases'])} cases, {pairs} mapping/request pairs")
        compared, failures, deliberate = run_corpus(corpus, mock, wire)
        print(f"wiremock-conformance: compared {compared} pairs with WireMock 2.35.1")
        for d in deliberate:
            print(f"  deliberate: {d}")
        calls, client_failures = run_client(mock, wire, os.path.join(work, "mappings"))
        print(f"wiremock-conformance: PyPI wiremock admin client and persistence: {calls} calls compared")
        failures += client_failures
        if args.java_client:
            java_failures = run_java_client(args.jar, args.java_client, [wire, mock])
            print(f"wiremock-conformance: WireMock's Java client: {'passed on both' if not java_failures else 'FAILED'}")
            failures += java_failures
        # Record and playback against the same WireMock (no second JVM): each records the same
        # upstream traffic and replays the other's recording (scripts/record-differential.py).
        differential = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "record-differential.py"),
                                       "--mock-server", args.mock_server, "--wiremock-url", wire["url"]], timeout=120)
        if differential.returncode != 0:
            failures.append("record-differential: the recordings do not replay the upstream's answers (its lines above)")
        for f in failures:
            print(f"  DIFFERENT: {f}")
        if failures:
            print(f"wiremock-conformance: FAILED: {len(failures)} difference(s)")
            sys.exit(1)
        print("wiremock-conformance: OK")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)


def network_interfaces():
    """The interfaces of this process's network namespace (/proc/self/net/dev is per namespace)."""
    with open("/proc/self/net/dev") as f:
        return sorted(line.split(":")[0].strip() for line in f.readlines()[2:])


def isolated_main(args):
    if args.require_isolated_network:
        names = network_interfaces()
        if names != ["lo"]:
            raise SystemExit(f"wiremock-conformance: network interfaces {names}: run inside `unshare -n` (only lo)")
        print("wiremock-conformance: isolated step: network namespace with loopback only (nothing can leave the machine)")
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="wiremock-real.")
    wire_root = os.path.join(work, "wiremock-root")
    os.makedirs(os.path.join(wire_root, "mappings"))
    os.makedirs(os.path.join(wire_root, "__files"))
    wire_port = free_port()
    procs = []
    failed = []
    try:
        wire_proc = subprocess.Popen(["java", "-jar", args.jar, "--port", str(wire_port), "--bind-address", "127.0.0.1",
                                      "--root-dir", wire_root, "--disable-banner", "--local-response-templating"],
                                     stdout=open(os.path.join(work, "wiremock.log"), "w"), stderr=subprocess.STDOUT)
        procs.append(wire_proc)
        wire = {"name": "WireMock", "port": wire_port, "url": f"http://127.0.0.1:{wire_port}"}
        wait_until_up(wire["url"], wire_proc, "WireMock", seconds=60)
        # First, while WireMock's root is still empty: its file source remembers every file it
        # loaded across resets, and DELETE /__admin/mappings then fails on the real folders'
        # multi-mapping files (read-only to it).
        if args.wiremock_tests:
            corpus = load_wiremock_tests(args.wiremock_tests, args.case_filter)
            mock_folder = os.path.join(work, "mock-tests")
            os.makedirs(os.path.join(mock_folder, "mappings"))
            replace_root(wire_root, mock_folder)
            requests.post(wire["url"] + "/__admin/reset", timeout=60).raise_for_status()
            proc, base, why = start_mock(args.mock_server, mock_folder, os.path.join(work, "mock-tests.log"))
            if proc:
                procs.append(proc)
                mock = {"name": "mock-server", "port": int(base.rsplit(":", 1)[1]), "url": base}
                results = run_wiremock_tests(corpus, [wire, mock])
            else:
                results = {"WireMock": run_wiremock_tests(corpus, [wire])["WireMock"],
                           "mock-server": {c["name"]: f"did not start ({why})" for c in corpus["cases"]}}
            wm_pass = [c for c in corpus["cases"] if results["WireMock"][c["name"]] is None]
            here = [c for c in wm_pass if results["mock-server"][c["name"]] is None]
            for c in corpus["cases"]:
                if results["WireMock"][c["name"]] is not None:
                    print(f"  WireMock fails {c['name']} ({c['source']}): {results['WireMock'][c['name']]}")
                elif results["mock-server"][c["name"]] is not None:
                    print(f"  fails here: {c['name']} ({c['source']}): {results['mock-server'][c['name']]}")
            percent = 100.0 * len(here) / len(wm_pass) if wm_pass else 100.0
            print(f"wiremock-conformance: WireMock's own tests: {len(corpus['cases'])} cases from "
                  f"{len({c['source'].split('.')[0] for c in corpus['cases']})} test classes; WireMock passes "
                  f"{len(wm_pass)}, of those {len(here)} pass here ({percent:.1f}%)")
            if len(wm_pass) < len(corpus["cases"]):
                failed.append(f"WireMock itself fails {len(corpus['cases']) - len(wm_pass)} translated case(s): the translation is wrong")
            if percent < args.min_wiremock_tests_percent:
                failed.append(f"WireMock's tests: {percent:.1f}% pass here, below --min-wiremock-tests-percent {args.min_wiremock_tests_percent}")
        if args.real_folders:
            print(f"wiremock-conformance: real folders of {args.real_folders} (one WireMock 2.35.1, a mock-server per folder)")
            t, differences = run_real_folders(args.real_folders, args.mock_server, wire, wire_root, work)
            base = t["compared"] - t["deliberate"]
            percent = 100.0 * t["same"] / base if base else 100.0
            print(f"wiremock-conformance: real folders: {t['folders']} folders, {t['mappings']} mappings "
                  f"(WireMock loaded {t['wm_loaded']}); here {t['started']} of {t['folders']} started, "
                  f"{t['loaded']} mappings loaded; {t['compared']} requests compared, {t['same']} same as WireMock, "
                  f"{t['deliberate']} deliberate, {t['compared'] - t['same'] - t['deliberate']} different ({percent:.1f}% same); "
                  f"{t['skipped']} mappings without a derived request")
            for d in differences[:40]:
                print(f"  DIFFERENT: {d}")
            if len(differences) > 40:
                print(f"  ... and {len(differences) - 40} more")
            overall = 100.0 * t["same"] / t["compared"] if t["compared"] else 100.0
            loaded_percent = 100.0 * t["same_loaded"] / t["to_loaded"] if t["to_loaded"] else 100.0
            print(f"wiremock-conformance: real folders: over all requests {overall:.1f}% same as WireMock (deliberate ones counted as different); "
                  f"requests to the mappings that loaded here (deliberate ones aside): {t['same_loaded']} of {t['to_loaded']} same ({loaded_percent:.1f}%)")
            if percent < args.min_real_same_percent:
                failed.append(f"real folders: {percent:.1f}% same, below --min-real-same-percent {args.min_real_same_percent}")
            if overall < args.min_overall_same_percent:
                failed.append(f"real folders: {overall:.1f}% of all requests same, below --min-overall-same-percent {args.min_overall_same_percent}")
            if loaded_percent < args.min_loaded_same_percent:
                failed.append(f"real folders: {loaded_percent:.1f}% of the requests to loaded mappings same, below --min-loaded-same-percent {args.min_loaded_same_percent}")
        print(f"wiremock-conformance: isolated step took {time.monotonic() - started:.0f} s")
        for f in failed:
            print(f"  FAILED: {f}")
        if failed:
            sys.exit(1)
        print("wiremock-conformance: isolated step OK")
    finally:
        stop(procs)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
