"""Records the same upstream traffic with mock-server and with WireMock 2.35.1, then has each replay
the other's recording (imported with POST /__admin/mappings/import) with the upstream gone: every
answer must equal the upstream's (status, Content-Type, body). Loopback only: the upstream is a
Python server this script starts.

Usage: python3 scripts/record-differential.py --mock-server .build/debug/mock-server --jar wiremock-standalone-2.35.1.jar
       (or --wiremock-url http://127.0.0.1:PORT for a WireMock already running: CI's conformance step passes its own)
"""
import argparse, gzip, http.server, json, os, socket, subprocess, sys, tempfile, threading, time, urllib.request, urllib.error

COUNTER = {"n": 0}
BIG = ("0123456789abcdef" * 1300).encode()


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, ctype, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/api/users":
            self.answer(200, "application/json", b'{"users":[1,2]}', [("X-Up", "u")])
        elif path == "/counter":
            COUNTER["n"] += 1
            self.answer(200, "text/plain", f"n={COUNTER['n']}".encode())
        elif path == "/bin":
            self.answer(200, "application/octet-stream", bytes([0, 1, 2, 255, 254, 128]))
        elif path == "/big":
            self.answer(200, "text/plain", BIG)
        elif path == "/gzip":
            self.answer(200, "application/json", gzip.compress(b'{"compressed":true}', mtime=0), [("Content-Encoding", "gzip")])
        else:
            self.answer(404, "text/plain", b"upstream: no such path")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.answer(201, "application/json", b'{"created":' + body + b"}")

    def log_message(self, *args):
        pass


TRAFFIC = [("GET", "/api/users?page=1", None), ("POST", "/api/users", b'{"name":"a"}'), ("GET", "/counter", None),
           ("GET", "/counter", None), ("GET", "/counter", None), ("GET", "/bin", None), ("GET", "/big", None),
           ("GET", "/gzip", None), ("GET", "/missing", None)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, ctype="application/json"):
    """Status, Content-Type and body as a client reads it (a gzip body decoded: a recording may keep it either way)."""
    req = urllib.request.Request(base + path, data=body, method=method, headers={"Content-Type": ctype} if body is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, headers, data = r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        status, headers, data = e.code, e.headers, e.read()
    if (headers.get("Content-Encoding") or "").lower() == "gzip":
        data = gzip.decompress(data)
    return status, headers.get("Content-Type"), data


def wait_up(base, proc, what):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"record-differential: {what} exited ({proc.returncode})")
        try:
            if call(base, "GET", "/__admin/mappings")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit(f"record-differential: {what} did not start")


def start(kind, args, procs):
    if kind == "WireMock" and args.wiremock_url:
        # A WireMock already running (the conformance step's JVM): emptied, not started again.
        base = args.wiremock_url.rstrip("/")
        call(base, "POST", "/__admin/recordings/stop")
        call(base, "DELETE", "/__admin/mappings")
        call(base, "POST", "/__admin/reset")
        return base
    root = tempfile.mkdtemp(prefix=f"record-differential-{kind}.")
    os.makedirs(os.path.join(root, "mappings"))
    port = free_port()
    if kind == "WireMock":
        cmd = ["java", "-jar", args.jar, "--port", str(port), "--bind-address", "127.0.0.1", "--root-dir", root, "--disable-banner"]
    else:
        cmd = [args.mock_server, "--port", str(port), "--log-level", "warning", "--mappings", root]
    proc = subprocess.Popen(cmd, stdout=open(os.path.join(root, "log"), "w"), stderr=subprocess.STDOUT)
    procs.append(proc)
    base = f"http://127.0.0.1:{port}"
    wait_up(base, proc, kind)
    return base


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mock-server", required=True)
    p.add_argument("--jar", help="WireMock's standalone jar, started here (or --wiremock-url)")
    p.add_argument("--wiremock-url", help="a WireMock 2.35.1 already running on loopback, used instead of starting one")
    args = p.parse_args()
    if not args.jar and not args.wiremock_url:
        p.error("--jar or --wiremock-url is required")
    class Quiet(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass  # a keep-alive connection the servers reset when they stop

    upstream = Quiet(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    target = f"http://127.0.0.1:{upstream.server_address[1]}"
    procs, failures = [], []
    try:
        # The upstream's own answers, the reference.
        COUNTER["n"] = 0
        expected = [call(target, m, path, body) for m, path, body in TRAFFIC]
        recordings = {}
        for kind in ["WireMock", "mock-server"]:
            base = start(kind, args, procs)
            COUNTER["n"] = 0
            status, _, text = call(base, "POST", "/__admin/recordings/start", json.dumps({"targetBaseUrl": target}).encode())
            if status != 200:
                sys.exit(f"record-differential: {kind} refused the start: {status} {text[:300]!r}")
            for (m, path, body), want in zip(TRAFFIC, expected):
                got = call(base, m, path, body)
                if (got[0], got[2]) != (want[0], want[2]):
                    failures.append(f"{kind} proxying {m} {path}: {got[0]} {got[2][:60]!r}, upstream {want[0]} {want[2][:60]!r}")
            status, _, text = call(base, "POST", "/__admin/recordings/stop")
            recordings[kind] = json.loads(text)["mappings"]
            print(f"record-differential: {kind} recorded {len(recordings[kind])} mappings: "
                  + ", ".join(sorted({m.get('name', '?') for m in recordings[kind]})))
        # The upstream gone: the replays answer from the recordings alone.
        upstream.shutdown()
        upstream.server_close()
        for ours, theirs in zip(recordings["mock-server"], recordings["WireMock"]):
            for part in ["request", "response"]:
                a = {k: v for k, v in ours[part].items() if k != "headers"}
                b = {k: v for k, v in theirs[part].items() if k != "headers"}
                if a != b:
                    # The answer must be recorded as WireMock records it (a gzip body decoded, text as body);
                    # the request's matchers may differ in form.
                    line = f"{ours.get('name')} {part} differs: mock-server {json.dumps(a)[:200]} / WireMock {json.dumps(b)[:200]}"
                    (failures.append(line) if part == "response" else print("  note: " + line))
            names = lambda m: sorted(k.lower() for k in (m["response"].get("headers") or {}))
            if names(ours) != names(theirs):
                print(f"  note: {ours.get('name')} response header names: mock-server {names(ours)} / WireMock {names(theirs)}")
            for key in ["name", "scenarioName", "requiredScenarioState", "newScenarioState", "persistent"]:
                if ours.get(key) != theirs.get(key):
                    failures.append(f"{ours.get('name')}: {key} {ours.get(key)!r} here, {theirs.get(key)!r} in WireMock")
        for player, recorder in [("mock-server", "WireMock"), ("WireMock", "mock-server")]:
            base = start(player, args, procs)
            status, _, text = call(base, "POST", "/__admin/mappings/import", json.dumps({"mappings": recordings[recorder]}).encode())
            if status != 200:
                failures.append(f"{player} refused {recorder}'s recording: {status} {text[:400]!r}")
                continue
            for (m, path, body), want in zip(TRAFFIC, expected):
                got = call(base, m, path, body)
                if got[0] != want[0] or got[2] != want[2] or (got[1] or "").split(";")[0] != (want[1] or "").split(";")[0]:
                    failures.append(f"{player} replaying {recorder}'s recording, {m} {path}: {got[0]} {got[1]} {got[2][:60]!r}; upstream {want[0]} {want[1]} {want[2][:60]!r}")
            print(f"record-differential: {player} replayed {recorder}'s recording")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)
    for f in failures:
        print("  FAIL " + f)
    print("record-differential: " + ("every answer equals the upstream's" if not failures else f"{len(failures)} differences"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
