"""Slow and idle clients: 500 slowloris sockets and 1,000 idle keep-alive connections must not
stop normal requests (GET /auth/policy on fresh connections) from being served in their usual time.
The bad clients come from many loopback addresses (40 each, under the per-address cap), as they
would from many hosts; a slowloris still trickling at the header timeout (10 s) must be cut off.
"""
import os
import socket
import threading
import time

from common import HOST, Server, log, once, percentile

SLOWLORIS = 500
IDLE = 1000
PROBES = 200
P99_LIMIT_MS = 50.0
# QUICK runs in CI on machines of unknown speed and load: there a scheduler hiccup must not fail
# the check, yet a server stalled by bad clients (seconds per request, or timeouts) still does.
QUICK_P99_LIMIT_MS, QUICK_BASELINE_FACTOR = 250.0, 10
PER_ADDRESS = 40
HEADER_TIMEOUT_S = 10


def connect_from(port, index, block):
    """A connection from 127.0.`block`.x, the `index`th bad client spread `PER_ADDRESS` to an address."""
    s = socket.socket()
    s.bind((f"127.0.{block}.{1 + index // PER_ADDRESS}", 0))
    s.settimeout(5)
    s.connect((HOST, port))
    return s


def probe(port):
    """PROBES sequential requests on fresh connections: (latencies in ms, failures)."""
    lat, failures = [], 0
    for _ in range(PROBES):
        t0 = time.perf_counter()
        try:
            status, _ = once(port, "GET", "/auth/policy", timeout=5)
            if status != 200:
                failures += 1
        except Exception:
            failures += 1
            continue
        lat.append((time.perf_counter() - t0) * 1000)
    return lat, failures


def open_idle(port):
    """Connections that made one keep-alive request and then say nothing."""
    socks, failed = [], 0
    req = f"GET /auth/policy HTTP/1.1\r\nHost: {HOST}\r\nConnection: keep-alive\r\n\r\n".encode()
    for index in range(IDLE):
        try:
            s = connect_from(port, index, 4)
            s.sendall(req)
            s.recv(65536)
            socks.append(s)
        except OSError:
            failed += 1
    return socks, failed


def trickle(port, stop, state):
    """Slowloris: each socket sends its request head one byte per round and never finishes it."""
    head = f"GET /auth/policy HTTP/1.1\r\nHost: {HOST}\r\n".encode()
    filler = b"X-Slow: a\r\n"
    socks = []
    for index in range(SLOWLORIS):
        try:
            socks.append([connect_from(port, index, 3), 0])
        except OSError:
            state["connect_failed"] += 1
    state["opened"] = len(socks)
    state["ready"].set()
    deadline = time.time() + 120
    while not stop.is_set() and time.time() < deadline:
        for entry in socks:
            s, n = entry
            if s is None:
                continue
            byte = head[n:n + 1] if n < len(head) else filler[(n - len(head)) % len(filler):][:1]
            try:
                s.send(byte)
                entry[1] = n + 1
            except OSError:
                s.close()
                entry[0] = None
                state["dropped"] += 1
        stop.wait(0.5)
    for s, _ in socks:
        if s is not None:
            s.close()


def run(tmp, quick):
    server = Server(tmp, os.path.join(tmp, "slow.sqlite"))
    try:
        once(server.port, "GET", "/auth/policy")  # warm up
        base, base_fail = probe(server.port)
        base_p99 = percentile(base, 99)

        stop = threading.Event()
        state = {"connect_failed": 0, "dropped": 0, "opened": 0, "ready": threading.Event()}
        t = threading.Thread(target=trickle, args=(server.port, stop, state), daemon=True)
        t.start()
        state["ready"].wait(60)
        idle, idle_failed = open_idle(server.port)
        hold = 2 if quick else 15
        time.sleep(hold)  # let the slowloris sockets trickle a few bytes each
        loaded, loaded_fail = probe(server.port)
        p50, p99 = percentile(loaded, 50), percentile(loaded, 99)
        # How many bad clients the server still holds (it may rightly drop some).
        idle_closed = 0
        for s in idle:
            s.setblocking(False)
            try:
                if s.recv(1) == b"":
                    idle_closed += 1
            except BlockingIOError:
                pass
            except OSError:
                idle_closed += 1
            s.close()
        stop.set()
        t.join(10)
        alive = server.alive()
    finally:
        server.stop()
    limit = max(QUICK_P99_LIMIT_MS, QUICK_BASELINE_FACTOR * base_p99) if quick else P99_LIMIT_MS
    ok = alive and loaded_fail == 0 and base_fail == 0 and p99 < limit
    if hold > HEADER_TIMEOUT_S + 3:
        # Past the header deadline every trickling head has had its 408 and been closed.
        ok = ok and state["dropped"] == state["opened"]
    figures = (f"held {hold} s; baseline p99 {base_p99:.1f} ms ({base_fail} failed); with {state['opened']} slowloris + "
               f"{len(idle)} idle: p50 {p50:.1f} ms, p99 {p99:.1f} ms (limit {limit:.0f} ms), {loaded_fail} failed of {PROBES}; "
               f"server closed {idle_closed} idle and {state['dropped']} slowloris; "
               f"{idle_failed + state['connect_failed']} bad-client connects refused")
    return ok, figures
