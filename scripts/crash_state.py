#!/usr/bin/env python3
"""Crash test of --state: SIGKILL the server at random moments during a stream of requests
that change state, restart it on the same file, and check that (1) it always starts (the file
always loads) and (2) every change answered more than GRACE seconds before the kill is there.

The stream is musbooking sign-ups, each a new phone: POST /api/users/sms with a form body
phone=9...; the SMS it sends is kept by the outbox, and that answer is the change checked.
With --register (what CI runs) each sign-up goes on (the code from /__mock/sms, then POST
/api/users/register) and the account, checked by POST /api/auth/login after the restart, is the
change: musbooking's accounts are in the state file.
With --mix (also in CI) the registrations are mixed with PUT /__mock/state (the document taken
at the run's start), POST /__mock/reset with the seed, and bare resets (in place, or back from a
posted seed): after each restart every account answered since the last answered reset or PUT
logs in, and every account such a reset or PUT removed does not, and the outbox holds the SMS of
every owed account. In half of the runs the kill comes the moment a reset or PUT is answered
(0 ms), in a quarter 0-20 ms after one is sent (mid-change). A reset or PUT in flight at the
kill may have happened or not, but wholly: accounts and outbox after the restart are both as
before it or both as after it.
Usage: crash_state.py BINARY SEED [--kills N] [--seconds S] [--grace S] [--register] [--mix]
"""
import argparse, http.client, json, os, random, re, signal, subprocess, sys, tempfile, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("seed")
ap.add_argument("--kills", type=int, default=200)
ap.add_argument("--seconds", type=float, default=120)
ap.add_argument("--grace", type=float, default=0,
                help="answered this long before the kill must survive; 0: every answered change (a change is answered once it is on disk)")
ap.add_argument("--max-wait", type=float, default=0.4, help="longest random run before a kill")
ap.add_argument("--register", action="store_true", help="complete each sign-up and check the accounts, not only the SMS")
ap.add_argument("--rate", type=float, default=200, help="registrations per second at most (a busy app's sign-ups, not a load test)")
ap.add_argument("--mix", action="store_true", help="resets and PUT /__mock/state among the registrations (implies --register)")
args = ap.parse_args()
if args.mix:
    args.register = True

workdir = tempfile.mkdtemp(prefix="mock-crash-")
state = os.path.join(workdir, "state.json")
rng = random.Random(int(os.environ.get("CRASH_SEED", "1")))


def fail(message):
    print(f"crash-state: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def start():
    proc = subprocess.Popen([args.binary, "--port", "0", "--seed", args.seed, "--state", state, "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline().decode()
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not m:
        proc.wait(timeout=10)
        fail(f"the server did not start on {state} (exit {proc.returncode}): {proc.stderr.read().decode().strip()}")
    return proc, int(m.group(1))


def lost(committed, present):
    """Committed phones missing from the outbox. A full outbox drops its oldest SMS (capacity
    10000), so then only phones newer than the oldest one kept are owed."""
    floor = min(map(int, present)) if len(present) >= 10000 else 0
    return [p for p in committed if int(p) >= floor and p not in present]


def form(conn, method, path, body):
    conn.request(method, path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    resp = conn.getresponse()
    return resp.status, resp.read()


PASSWORD = "secret1"
checked_accounts = set()


def lost_accounts(port):
    """Committed accounts that cannot log in: every one not checked before, and a sample of the rest."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    fresh = [p for p in committed if p not in checked_accounts]
    older = list(checked_accounts)
    sample = fresh + rng.sample(older, min(20, len(older)))
    missing = []
    for phone in sample:
        status, body = form(conn, "POST", "/api/auth/login", f"login={phone}&password={PASSWORD}")
        if status != 200:
            missing.append(phone)
        checked_accounts.add(phone)
    conn.close()
    return missing


def sms_phones(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/__mock/sms")
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    if resp.status != 200:
        fail(f"GET /__mock/sms answered {resp.status}")
    return {m["phone"] for m in json.loads(body)}



def json_request(conn, method, path, body=b""):
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    return resp.status, resp.read()


def register(conn, phone):
    status, _ = form(conn, "POST", "/api/users/sms", f"phone={phone}")
    if status != 200:
        fail(f"POST /api/users/sms answered {status}")
    conn.request("GET", f"/__mock/sms?phone={phone}")
    resp = conn.getresponse()
    code = json.loads(resp.read())[-1]["code"]
    status, body = form(conn, "POST", "/api/users/register", f"name=Crash&phone={phone}&code={code}&password={PASSWORD}")
    if status != 200:
        fail(f"POST /api/users/register answered {status}: {body[:200]!r}")


def logs_in(conn, phone):
    status, _ = form(conn, "POST", "/api/auth/login", f"login={phone}&password={PASSWORD}")
    return status == 200


def run_mix():
    """Registrations, resets and PUTs; the model: phones that must log in and phones that must not."""
    with open(args.seed, "rb") as f:
        seeded_body = b'{"seed": ' + f.read() + b"}"
    present, absent = set(), set()   # owed after the restart: logs in / does not
    attempted = set()   # every phone whose registration was sent (answered or not)
    counts = {"register": 0, "put": 0, "seeded reset": 0, "bare reset": 0}
    in_flight_kills = {"happened": 0, "not": 0}
    kills, began, phone = 0, time.monotonic(), [9000000000]
    while kills < args.kills and time.monotonic() - began < args.seconds:
        proc, port = start()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        check(conn, present, absent, kills)
        status, document = json_request(conn, "GET", "/__mock/state")
        if status != 200:
            fail(f"GET /__mock/state answered {status}")
        users = json.loads(document)["systems"]["musbooking"]["users"]
        in_document = {u["phone"] for u in users if u.get("phone", "").startswith("900")}   # this script's phones
        outbox = json.loads(document)["systems"]["outbox"]["sms"]
        sms_in_document = {m["phone"] for m in outbox if m.get("phone", "").startswith("900")}
        kill_at_answer = rng.random() < 0.5
        kill_mid_change = not kill_at_answer and rng.random() < 0.5   # 0-20 ms after sending one
        stop = threading.Event()
        in_flight = [None]   # (name, effect) of a reset or PUT sent and not yet answered

        def apply(keep):
            """A reset or PUT answered: exactly `keep` (the document's accounts; none after a reset) stays."""
            nonlocal present, absent
            absent = (absent | attempted) - keep
            present = set(keep)

        def stream():
            nonlocal present
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            next_at = time.monotonic()
            while not stop.is_set():
                next_at += 1 / args.rate
                pause = next_at - time.monotonic()
                if pause > 0:
                    stop.wait(pause)   # pacing the stream, not synchronisation
                roll = rng.random()
                try:
                    if roll < 0.04:
                        name = "put" if roll < 0.015 else "seeded reset" if roll < 0.028 else "bare reset"
                        keep = set(in_document) if name == "put" else set()   # what stays
                        keep_sms = set(sms_in_document) if name == "put" else set()
                        in_flight[0] = (name, keep, keep_sms)
                        method, path, payload = {"put": ("PUT", "/__mock/state", document),
                                                 "seeded reset": ("POST", "/__mock/reset", seeded_body),
                                                 "bare reset": ("POST", "/__mock/reset", b"")}[name]
                        if kill_mid_change:
                            c.request(method, path, body=payload, headers={"Content-Type": "application/json"})
                            time.sleep(rng.uniform(0, 0.02))   # the moment of the kill, in the change (not synchronisation)
                            proc.send_signal(signal.SIGKILL)
                            return
                        status, body = json_request(c, method, path, payload)
                        if status != 204:
                            fail(f"{name} answered {status}: {body[:200]!r}")
                        if kill_at_answer:
                            proc.send_signal(signal.SIGKILL)   # 0 ms after the answer
                        in_flight[0] = None
                        apply(keep)
                        counts[name] += 1
                        if kill_at_answer:
                            return
                    else:
                        p = str(phone[0]); phone[0] += 1
                        attempted.add(p)
                        absent.discard(p)
                        register(c, p)
                        present.add(p)
                        counts["register"] += 1
                except (OSError, http.client.HTTPException, ValueError):
                    return   # the kill, mid-request

        t = threading.Thread(target=stream, daemon=True)
        t.start()
        time.sleep(rng.uniform(0, args.max_wait))   # the random moment of the kill (not synchronisation)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        stop.set()
        t.join(timeout=10)
        kills += 1
        if in_flight[0] is not None:
            # Happened or not, but wholly: the restart must match one of the two models.
            # Two systems looked at (musbooking's accounts and the outbox), so a half-made change shows.
            name, keep, keep_sms = in_flight[0]
            proc, port = start()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            sms = sms_phones(port) & attempted
            before_ok = (all(logs_in(conn, p) for p in present) and not any(logs_in(conn, p) for p in absent)
                         and present <= sms)
            after_ok = (all(logs_in(conn, p) for p in keep) and not any(logs_in(conn, p) for p in (absent | attempted) - keep)
                        and sms <= keep_sms)
            if not (before_ok or after_ok):
                detail = {"SMS of owed accounts missing": sorted(present - sms)[:5], "SMS kept that the change removes": sorted(sms - keep_sms)[:5],
                          "owed before, missing": sorted(p for p in present if not logs_in(conn, p))[:5],
                          "removed before, back": sorted(p for p in absent if logs_in(conn, p))[:5],
                          "owed after, missing": sorted(p for p in keep if not logs_in(conn, p))[:5],
                          "removed after, back": sorted(p for p in (absent | attempted) - keep if logs_in(conn, p))[:5]}
                fail(f"after kill {kills}, a {name} in flight: the state is neither before nor after it: {detail}")
            if after_ok and not before_ok:
                apply(keep)
            in_flight_kills["happened" if after_ok and not before_ok else "not"] += 1
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    proc, port = start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    check(conn, present, absent, kills)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=15)
    leftovers = [n for n in os.listdir(workdir) if n.endswith(".tmp")]
    if leftovers:
        fail(f"temporary files left beside the state file: {leftovers}")
    print(f"crash-state: ok (mix): {kills} SIGKILLs in {time.monotonic() - began:.0f} s; answered: "
          + ", ".join(f"{n} {k}" for n, k in counts.items())
          + f"; killed with a reset or PUT in flight {sum(in_flight_kills.values())} times (whole after the restart: "
          + f"{in_flight_kills['happened']} made, {in_flight_kills['not']} not)"
          + f"; at the end {len(present)} accounts owed and present, {len(absent)} removed and absent (grace 0)")
    sys.exit(0)


checked_absent = set()


def check(conn, present, absent, kills):
    """Every owed account logs in; every removed one does not (the new ones all, a sample of the rest)."""
    missing = [p for p in sorted(present) if not logs_in(conn, p)]
    if missing:
        fail(f"after kill {kills}: {len(missing)} answered registrations lost, e.g. {missing[:3]}")
    port = conn.port
    no_sms = sorted(present - sms_phones(port))
    if no_sms:
        fail(f"after kill {kills}: the SMS of {len(no_sms)} owed accounts are not in the outbox, e.g. {no_sms[:3]}")
    fresh = [p for p in absent if p not in checked_absent]
    older = sorted(absent - set(fresh))
    back = [p for p in fresh + rng.sample(older, min(20, len(older))) if logs_in(conn, p)]
    if back:
        fail(f"after kill {kills}: {len(back)} accounts an answered reset or PUT removed are back, e.g. {back[:3]}")
    checked_absent.update(fresh)


if args.mix:
    run_mix()

last_kill = 0.0
last_ages = {}
worst_lost = [0.0]   # the oldest answer (seconds before its kill) that a kill took
committed = {}   # phone -> monotonic time its answer arrived
next_phone = [9000000000]
kills = 0
checked = 0
began = time.monotonic()

while kills < args.kills and time.monotonic() - began < args.seconds:
    proc, port = start()
    present = sms_phones(port)
    missing = lost_accounts(port) if args.register else lost(committed, present)
    if missing:
        oldest = max(last_kill - committed[p] for p in missing) * 1000
        fail(f"after kill {kills}: {len(missing)} answered registrations lost, answered up to {oldest:.0f} ms before the kill, e.g. {missing[:3]}")
    checked += len(committed)
    # Of the last run's answers, the oldest one the kill took: how late writes really were.
    for phone, age in last_ages.items():
        if phone not in present and int(phone) >= (min(map(int, present)) if len(present) >= 10000 else 0):
            worst_lost[0] = max(worst_lost[0], age)
    # Only changes answered safely before the kill are owed; forget the rest of the last run.
    stop = threading.Event()

    def stream():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        next_at = time.monotonic()
        while not stop.is_set():
            next_at += 1 / args.rate
            pause = next_at - time.monotonic()
            if pause > 0:
                stop.wait(pause)   # pacing the stream, not synchronisation
            phone = str(next_phone[0]); next_phone[0] += 1
            try:
                status, _ = form(conn, "POST", "/api/users/sms", f"phone={phone}")
                if status != 200:
                    fail(f"POST /api/users/sms answered {status}")
                if args.register:
                    conn.request("GET", f"/__mock/sms?phone={phone}")
                    resp = conn.getresponse()
                    code = json.loads(resp.read())[-1]["code"]
                    status, body = form(conn, "POST", "/api/users/register",
                                        f"name=Crash&phone={phone}&code={code}&password={PASSWORD}")
                    if status != 200:
                        fail(f"POST /api/users/register answered {status}: {body[:200]!r}")
            except (OSError, http.client.HTTPException, ValueError):
                return   # the kill, mid-request
            answered[phone] = time.monotonic()

    answered = {}
    t = threading.Thread(target=stream, daemon=True)
    t.start()
    time.sleep(rng.uniform(0, args.max_wait))   # the random moment of the kill (not synchronisation)
    killed_at = last_kill = time.monotonic()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stop.set()
    t.join(timeout=10)
    last_ages = {phone: killed_at - at for phone, at in answered.items()}
    for phone, at in list(answered.items()):
        if at < killed_at - args.grace:
            committed[phone] = at
    kills += 1

proc, port = start()
present = sms_phones(port)
missing = lost_accounts(port) if args.register else lost(committed, present)
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=15)
if missing:
    fail(f"after the last kill: {len(missing)} answered registrations lost, e.g. {missing[:3]}")
leftovers = [n for n in os.listdir(workdir) if n.endswith(".tmp")]
if leftovers:
    fail(f"temporary files left beside the state file: {leftovers}")
print(f"crash-state: ok: {kills} SIGKILLs in {time.monotonic() - began:.0f} s, every restart loaded {state}; "
      f"{len(committed)} {'accounts registered' if args.register else 'SMS codes sent'} (answered > {args.grace * 1000:.0f} ms before a kill), all kept "
      f"({len(present)} SMS in the outbox at the end); the oldest answer a kill took was {worst_lost[0] * 1000:.0f} ms old")
