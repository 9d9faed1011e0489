#!/usr/bin/env python3
"""Clients that pipeline and never read (issue 20 §1): CLIENTS connections, each with a 4 KiB
receive window, write REQUESTS pipelined `GET /rows/1` (about 6 KB answers) and never read.
Checks that the server's memory stays bounded (peak RSS growth at most --max-growth-mib), that
every connection is closed within the send timeout (plus one sweep), that a health request is
answered meanwhile, and reports how much memory is given back after they leave.
Usage: noread_http.py BINARY [--clients 200] [--requests 1500] [--send-timeout 5] [--max-growth-mib 50]
"""
import argparse, http.client, json, os, re, select, socket, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("--clients", type=int, default=200)
ap.add_argument("--requests", type=int, default=1500)
ap.add_argument("--send-timeout", type=float, default=5)
ap.add_argument("--max-growth-mib", type=float, default=50)
ap.add_argument("--flags", default="", help="extra server flags")
args = ap.parse_args()


def fail(message):
    print(f"noread: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def rss_kib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


proc = subprocess.Popen([args.binary, "--port", "0", "--log-level", "warning", "--send-timeout", str(args.send_timeout),
                         "--max-connections", str(args.clients + 100)] + args.flags.split(),
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
try:
    m = re.search(r"http://127\.0\.0\.1:(\d+)", proc.stdout.readline().decode())
    if not m:
        fail("the server did not start")
    port = int(m.group(1))

    def request(method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    _, body = request("POST", "/auth/login", json.dumps({"email": "johndown@exmample.com", "password": "1234567"}),
                      {"Content-Type": "application/json"})
    token = json.loads(body)["token"]
    for _ in range(200):  # warm the allocator and the code paths first
        request("GET", "/rows/1", headers={"authorization": token})
    base = rss_kib(proc.pid)

    one = f"GET /rows/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: {token}\r\n\r\n".encode()
    payload = one * args.requests
    socks, offsets = [], []
    started = time.monotonic()
    for _ in range(args.clients):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        socks.append(s)
        offsets.append(0)
    peak = base
    # Write what the server takes; it stops reading once its output for a connection is bounded.
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        progress = False
        for i, s in enumerate(socks):
            if offsets[i] < len(payload):
                try:
                    n = s.send(payload[offsets[i]:offsets[i] + 65536])
                    offsets[i] += n
                    progress = progress or n > 0
                except BlockingIOError:
                    pass
        peak = max(peak, rss_kib(proc.pid))
        if not progress:
            time.sleep(0.05)  # measuring, not synchronising: the server has stopped reading
    # A request on another connection is answered meanwhile.
    t = time.monotonic()
    status, _ = request("GET", "/__mock/health")
    health_ms = (time.monotonic() - t) * 1000
    if status != 200:
        fail(f"health answered {status} during the burst")
    # Every connection is reset by the send timeout; poll with no events reports only HUP/ERR.
    poller = select.poll()
    for s in socks:
        poller.register(s, 0)
    open_fds = {s.fileno() for s in socks}
    limit = started + args.send_timeout + 3 + 4  # the timeout, the write phase and sweeps, slack
    while open_fds and time.monotonic() < limit:
        for fd, ev in poller.poll(50):
            if ev & (select.POLLHUP | select.POLLERR) and fd in open_fds:
                open_fds.discard(fd)
                poller.unregister(fd)
        peak = max(peak, rss_kib(proc.pid))
    closed_at = time.monotonic() - started
    for s in socks:
        s.close()
    if open_fds:
        fail(f"{len(open_fds)} of {args.clients} connections still open {closed_at:.1f} s after they stopped reading")
    time.sleep(1.5)  # measuring: the server's periodic trim runs within a second of the closes
    after = rss_kib(proc.pid)
    growth_mib = (peak - base) / 1024
    sent_kib = sum(offsets) / 1024 / args.clients
    print(f"noread: {args.clients} clients x {args.requests} pipelined GET /rows/1 (took {sent_kib:.0f} KiB each): "
          f"RSS {base/1024:.1f} -> peak {peak/1024:.1f} MiB (+{growth_mib:.1f}), {after/1024:.1f} MiB after they left; "
          f"all closed at {closed_at:.1f} s (send timeout {args.send_timeout:g} s); health {health_ms:.1f} ms meanwhile")
    if growth_mib > args.max_growth_mib:
        fail(f"RSS grew {growth_mib:.1f} MiB, more than {args.max_growth_mib} MiB")
finally:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
