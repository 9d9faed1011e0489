#!/usr/bin/env bash
# Drives a running build of mock-server with real Python clients: `requests` (HTTP),
# `h11` (a strict HTTP/1.1 framing checker) and `websockets` (RFC 6455 client, with ping
# and the close handshake). Installs them into .venv-clients; CI runs this.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/lib/python-venv.sh
source scripts/lib/mock-server.sh
VENV="$ROOT/.venv-clients"
ensure_venv "$VENV" websockets requests h11
start_mock_server python-clients

timeout 60 "$VENV/bin/python" - "$PORT" <<'PY'
import asyncio, json, socket, sys
import h11, requests, websockets

port = int(sys.argv[1])
base = f"http://127.0.0.1:{port}"
checks = 0
def check(cond, what):
    global checks
    if not cond:
        raise SystemExit(f"python-clients: FAILED: {what}")
    checks += 1

# requests: the rows app end to end.
s = requests.Session()
r = s.post(f"{base}/auth/login", json={"email": "johndown@exmample.com", "password": "1234567"})
check(r.status_code == 200 and r.headers["Content-Type"] == "application/json; charset=utf-8", "login")
token = r.json()["token"]
rows = s.get(f"{base}/rows/2", headers={"Authorization": token}).json()
check([row["id"] for row in rows] == list(range(20, 40)), "rows page 2 ids")
check(s.get(f"{base}/rows/1", headers={"authorization": "Bearer " + token}).status_code == 403, "Bearer refused")
check(s.post(f"{base}/api/users/sms", data={"phone": "+7 (912) 345-67-89"}).text == "Код успешно сформирован и послан получателю", "sms")

# h11: every response framed exactly as HTTP/1.1 says, on one keep-alive connection.
conn, sock = h11.Connection(h11.CLIENT), socket.create_connection(("127.0.0.1", port))
def roundtrip(method, target, headers=(), body=b""):
    hdrs = [("Host", "127.0.0.1")] + list(headers)
    if body: hdrs.append(("Content-Length", str(len(body))))
    sock.sendall(conn.send(h11.Request(method=method, target=target, headers=hdrs)))
    if body: sock.sendall(conn.send(h11.Data(data=body)))
    sock.sendall(conn.send(h11.EndOfMessage()))
    response, data = None, b""
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(sock.recv(65536)); continue
        if isinstance(event, h11.Response): response = event
        elif isinstance(event, h11.Data): data += event.data
        elif isinstance(event, h11.EndOfMessage):
            conn.start_next_cycle(); return response, data
for method, target, body in [("GET", "/__mock/health", b""), ("HEAD", "/__mock/health", b""), ("GET", "/nope", b""),
                             ("DELETE", "/auth/login", b""), ("OPTIONS", "/auth/login", b""),
                             ("POST", "/rsschool/secure", b'{"sequence":"132"}')]:
    response, data = roundtrip(method, target, [("Content-Type", "application/json")] if body else [], body)
    names = {k.lower() for k, _ in response.headers}
    check(b"date" in names and b"server" in names, f"{method} {target}: Date and Server")
    check(response.status_code == 204 or b"content-length" in names, f"{method} {target}: Content-Length")
check(json.loads(data)["title"] == "Welcome", "rsschool over h11")

# websockets: LOGIN_CUSTOMER, pipelined requests, ping, binary frames, close handshake.
async def gateway():
    async with websockets.connect(f"ws://127.0.0.1:{port}/customer-gateway/customer") as ws:
        for i in range(5):
            await ws.send(json.dumps({"type": "LOGIN_CUSTOMER", "sequence_id": f"SEQ-{i}",
                                      "data": {"email": "fpi@bk.ru", "password": "123123"}}))
        replies = [json.loads(await ws.recv()) for _ in range(5)]
        check([r["sequence_id"] for r in replies] == [f"SEQ-{i}" for i in range(5)], "sequence ids in order")
        check(all(r["type"] == "CUSTOMER_API_TOKEN" for r in replies), "tokens")
        await (await ws.ping(b"hello"))
        await ws.send(json.dumps({"type": "LOGIN_CUSTOMER", "sequence_id": "B", "data": {"email": "x@y.z", "password": "p"}}).encode())
        reply = await ws.recv()
        check(isinstance(reply, str) and json.loads(reply)["type"] == "CUSTOMER_ERROR", "binary in, text out")
    check(ws.close_code == 1000, "close handshake")
asyncio.run(gateway())
print(f"python-clients: {checks} checks passed (requests, h11, websockets)")
PY
