"""A stand-in for the control plane (API.md §6.1) in front of a real mock-server, so the console's
journal, faults, clock and token panels can be driven in a browser on a build that does not
serve them yet. Everything else is forwarded to the real server unchanged.

Only the shapes the console reads are emulated: journal entries of the forwarded requests,
fault rules kept in a list, a clock offset, token calls acknowledged.
"""
import datetime
import http.server
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

SYSTEM_BY_PREFIX = [("/api/", "musbooking"), ("/auth/", "rows"), ("/rows/", "rows"), ("/customer", "skyzone"),
                    ("/tokens", "skyzone"), ("/rsschool/", "rsschool")]


def now_iso(offset=0.0):
    t = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=offset)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Stub:
    def __init__(self, upstream):
        self.upstream = upstream.rstrip("/")
        self.lock = threading.Lock()
        self.journal, self.faults, self.offset, self.next_id, self.next_fault = [], [], 0.0, 1, 1
        self.calls = []

    def serve(self):
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body=None, headers=()):
                data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode())
                self.send_response(status)
                if body is not None and not isinstance(body, bytes):
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if stub.control(self, url, body):
                    return
                self.forward(url, body)

            def forward(self, url, body):
                started = time.monotonic()
                # As a same-origin reverse proxy: the upstream sees its own Host and no Origin.
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "origin", "connection", "content-length")}
                req = urllib.request.Request(stub.upstream + self.path, data=body if self.command not in ("GET", "HEAD") else None,
                                             method=self.command, headers=headers)
                try:
                    with urllib.request.urlopen(req, timeout=10) as r:
                        status, rheaders, rbody = r.status, list(r.headers.items()), r.read()
                except urllib.error.HTTPError as e:
                    status, rheaders, rbody = e.code, list(e.headers.items()), e.read()
                skip = ("content-length", "connection", "transfer-encoding", "date", "server")
                self.reply(status, rbody, [(k, v) for k, v in rheaders if k.lower() not in skip])
                if not url.path.startswith("/__mock"):
                    system = next((s for p, s in SYSTEM_BY_PREFIX if url.path.startswith(p)), None)
                    with stub.lock:
                        stub.journal.append({
                            "id": stub.next_id, "at": now_iso(stub.offset), "system": system, "method": self.command,
                            "path": url.path, "query": url.query, "status": status,
                            "durationMs": round((time.monotonic() - started) * 1000, 2),
                            "requestHeaders": {k: v for k, v in self.headers.items()},
                            "requestBody": body.decode("utf-8", "replace"), "responseBody": rbody.decode("utf-8", "replace"),
                            "hint": dict((k.lower(), v) for k, v in rheaders).get("x-mock-hint"),
                        })
                        stub.next_id += 1

        for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"):
            setattr(Handler, "do_" + method, Handler.handle_any)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def control(self, h, url, body):
        path, method = url.path, h.command
        known = path in ("/__mock/requests", "/__mock/faults", "/__mock/clock", "/__mock/tokens/expire", "/__mock/tokens/revoke") \
            or path.startswith("/__mock/faults/")
        if not known:
            return False
        if method == "OPTIONS":
            h.reply(204)
            return True
        if method != "GET" and h.headers.get("X-Mock-Admin") != "1" and "json" not in (h.headers.get("Content-Type") or ""):
            h.reply(403, {"error": "not marked as an admin request"})
            return True
        data = json.loads(body) if body else {}
        with self.lock:
            self.calls.append((method, path, data))
            if path == "/__mock/requests":
                if method == "DELETE":
                    self.journal = []
                    h.reply(204)
                else:
                    q = urllib.parse.parse_qs(url.query)
                    since, limit = int(q.get("since", ["0"])[0]), int(q.get("limit", ["100"])[0])
                    h.reply(200, [e for e in self.journal if e["id"] > since][:limit])
            elif path == "/__mock/faults":
                if method == "POST":
                    rule = dict(data, id=str(self.next_fault), remaining=data.get("times"))
                    self.next_fault += 1
                    self.faults.append(rule)
                    h.reply(201, rule)
                elif method == "DELETE":
                    self.faults = []
                    h.reply(204)
                else:
                    h.reply(200, self.faults)
            elif path.startswith("/__mock/faults/"):
                self.faults = [f for f in self.faults if f["id"] != path.rsplit("/", 1)[1]]
                h.reply(204)
            elif path == "/__mock/clock":
                if method == "POST":
                    self.offset += float(data.get("advanceSeconds", 0))
                elif method == "DELETE":
                    self.offset = 0.0
                h.reply(200, {"now": now_iso(self.offset), "offsetSeconds": self.offset})
            else:
                h.reply(200, {"expired" if path.endswith("expire") else "revoked": 1})
        return True
