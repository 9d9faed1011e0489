#!/usr/bin/env python3
"""--state at scale (issue 20 §3): fills ACCOUNTS SkyZone accounts through the API (several
connections, each request answered only once its change is on disk), then times single changes
at that size, the restart, and checks every account is still there after a SIGKILL.
With --system rows the accounts are the rows app's, made with POST /__mock/accounts and checked
with POST /auth/login (the gateway keeps its accounts the same way).
Prints one line of figures; fails when a change at full size takes more than --max-change-ms
(median) or an account is lost.
Usage: state_scale.py BINARY [--accounts 50000] [--connections 8] [--max-change-ms 50] [--system skyzone|rows]
"""
import argparse, http.client, json, os, re, signal, statistics, subprocess, sys, tempfile, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("--accounts", type=int, default=50000)
ap.add_argument("--connections", type=int, default=8)
ap.add_argument("--max-change-ms", type=float, default=50)
ap.add_argument("--system", choices=["skyzone", "rows"], default="skyzone")
args = ap.parse_args()

workdir = tempfile.mkdtemp(prefix="mock-scale-")
state = os.path.join(workdir, "state.json")


def fail(message):
    print(f"state-scale: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def start():
    t = time.monotonic()
    proc = subprocess.Popen([args.binary, "--port", "0", "--state", state, "--log-level", "warning",
                             "--max-skyzone-accounts", str(args.accounts + 1000)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    m = re.search(r"http://127\.0\.0\.1:(\d+)", proc.stdout.readline().decode())
    if not m:
        proc.wait(timeout=30)
        fail(f"no start: {proc.stderr.read().decode()}")
    return proc, int(m.group(1)), time.monotonic() - t


def create(conn, n):
    if args.system == "skyzone":
        path, body, ok = "/customer", {"username": f"user{n}@example.com", "password": "secret"}, 200
    else:
        path, body, ok = "/__mock/accounts", {"system": args.system, "email": f"user{n}@example.com", "password": "secret"}, 201
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    if r.status != ok:
        fail(f"POST {path} answered {r.status}")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


proc, port, _ = start()
began = time.monotonic()
cpu0 = cpu_seconds(proc.pid)
per = args.accounts // args.connections


def fill(k):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for i in range(k * per, (k + 1) * per):
        create(conn, i)
    conn.close()


threads = [threading.Thread(target=fill, args=(k,)) for k in range(args.connections)]
for t in threads: t.start()
for t in threads: t.join()
fill_s = time.monotonic() - began
fill_cpu = cpu_seconds(proc.pid) - cpu0
created = per * args.connections

conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
latencies = []
for i in range(40):
    t = time.monotonic()
    create(conn, created + i)
    latencies.append((time.monotonic() - t) * 1000)
created += 40
median = statistics.median(latencies)
files = {n: os.path.getsize(os.path.join(workdir, n)) for n in os.listdir(workdir) if n.startswith("state.json")}
proc.send_signal(signal.SIGKILL)
proc.wait()

proc, port, restart_s = start()
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
missing = 0
sample = list(range(0, created, max(1, created // 500))) + list(range(created - 40, created))
for i in sample:
    if args.system == "skyzone":
        path, body = "/tokens", {"username": f"user{i}@example.com", "password": "secret"}
    else:
        path, body = "/auth/login", {"email": f"user{i}@example.com", "password": "secret"}
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    if r.status != 200:
        missing += 1
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=60)
print(f"state-scale: {created} {args.system} accounts: fill {fill_s:.1f} s ({fill_s / created * 1e6:.0f} µs and "
      f"{fill_cpu / created * 1e6:.0f} µs server CPU per change, {args.connections} connections); one change at full size "
      f"median {median:.1f} ms, max {max(latencies):.1f} ms; files at the kill {files}; restart after SIGKILL {restart_s:.1f} s; "
      f"{missing} of the sampled accounts missing")
if missing:
    fail(f"{missing} answered accounts lost after SIGKILL")
if median > args.max_change_ms:
    fail(f"a change at {created} accounts took {median:.1f} ms (median), more than {args.max_change_ms} ms")
