"""Runs the stub corpus against mock-server and WireMock 2.35.1 and compares the answers.

Both servers share one root folder (mappings/ empty, __files/ from the corpus), start on free
loopback ports, and are reset between cases. Each request's status, body (JSON-equal when both
are JSON, else byte-equal; a regex for random values) and the headers the case's mappings set
must agree; a malformed mapping must be refused (422) by both, and a 'deliberate' one by this
server only. Then PyPI's wiremock admin client drives both. Exits 1 on any difference.
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mock-server", required=True)
    p.add_argument("--jar", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--java-client", help="folder of the compiled JavaClientCheck class")
    args = p.parse_args()
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


if __name__ == "__main__":
    main()
