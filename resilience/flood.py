"""Connection flood: one address (127.0.0.1) opens thousands of half-sent requests; the server must
keep at most its per-address cap of them and go on answering another address (127.0.0.2) within a
second. Then many addresses together fill the server to its connection limit but for the reserve,
and a newcomer must still be answered; a head trickled in a byte at a time must get 408 at its
deadline however steadily the bytes come. Linux routes all of 127/8 to loopback, so every source
address here is a different client of the server on 127.0.0.1.
"""
import os
import socket
import time

from common import HOST, Server, once, percentile

FLOOD = 4600
CAP = 64
PROBE_LIMIT_S = 1.0
HEADER_TIMEOUT = 2
HEAD = b"GET /auth/policy HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def is_open(s):
    """The server has neither closed, reset nor answered this socket."""
    try:
        s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)  # returns only if closed or answered
    except BlockingIOError:
        return True
    except OSError:
        pass
    return False


def prune(socks):
    kept = []
    for s in socks:
        if is_open(s):
            kept.append(s)
        else:
            s.close()
    return kept


def hold_half_sent(port, count, source):
    """Opens `count` connections from `source`, each sending a head that never ends; returns those
    the server kept (the others are closed as they are found refused)."""
    kept = []
    for index in range(count):
        s = socket.socket()
        try:
            s.bind((source, 0))
            s.settimeout(2)
            s.connect((HOST, port))
            s.sendall(HEAD)
            s.setblocking(False)  # so that is_open never waits
            kept.append(s)
        except OSError:
            s.close()
        if index % 50 == 49:
            kept = prune(kept)
    return kept


def probe(port, source, count):
    """`count` GET /healthz on fresh connections from `source`: (latencies in s, failures)."""
    latencies, failures = [], 0
    request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
    for _ in range(count):
        t0 = time.perf_counter()
        s = socket.socket()
        try:
            s.bind((source, 0))
            s.settimeout(5)
            s.connect((HOST, port))
            s.sendall(request)
            reply = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
            if not reply.startswith(b"HTTP/1.1 200 "):
                failures += 1
                continue
            latencies.append(time.perf_counter() - t0)
        except OSError:
            failures += 1
        finally:
            s.close()
    return latencies, failures


def trickle(port, source, interval=0.2, limit=30):
    """A slowloris head from `source`, a byte every `interval`: (status line or None, seconds)."""
    s = socket.socket()
    s.bind((source, 0))
    s.connect((HOST, port))
    s.settimeout(interval)
    s.sendall(HEAD)
    t0 = time.time()
    reply = b""
    filler = b"X-Slow: a\r\n" * 1000
    for byte in filler:
        if time.time() - t0 > limit:
            break
        try:
            s.send(bytes([byte]))
        except OSError:
            break
        try:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
        except socket.timeout:
            pass
        except OSError:
            break
    s.close()
    line = reply.split(b"\r\n", 1)[0].decode(errors="replace") if reply else None
    return line, time.time() - t0


def run(tmp, quick):
    probes = 20 if quick else 200
    # The defaults a deployment gets (64 per address, 10 s header timeout), spelt out in case the
    # environment says otherwise.
    server = Server(tmp, os.path.join(tmp, "flood.sqlite"), extra=("--max-connections-per-address", str(CAP)))
    try:
        once(server.port, "GET", "/healthz")
        base, base_fail = probe(server.port, "127.0.0.2", probes)

        # One address floods.
        t0 = time.time()
        held = hold_half_sent(server.port, FLOOD, "127.0.0.1")
        flood_s = time.time() - t0
        time.sleep(0.3)  # the last refusals arrive
        flooded, flooded_fail = probe(server.port, "127.0.0.2", probes)
        if not quick:
            time.sleep(5)  # held for a while, then probed again
            later, later_fail = probe(server.port, "127.0.0.2", probes)
            flooded, flooded_fail = flooded + later, flooded_fail + later_fail
        kept = len(prune(held))
        for s in held:
            s.close()

        # Many addresses fill the connection limit but for its reserve; a newcomer still gets in.
        crowd = []
        for index in range(1, 71):
            crowd += hold_half_sent(server.port, CAP, f"127.0.2.{index}")
        time.sleep(0.3)
        crowd = prune(crowd)
        newcomer, newcomer_fail = probe(server.port, "127.0.0.2", max(5, probes // 4))
        for s in crowd:
            s.close()
        time.sleep(0.5)
        after, after_fail = probe(server.port, "127.0.0.1", 5)
        alive = server.alive()
    finally:
        server.stop()

    # Slowloris: the head deadline is total, whatever the pace of the bytes.
    slow_server = Server(tmp, os.path.join(tmp, "slowloris.sqlite"), extra=("--header-timeout", str(HEADER_TIMEOUT)))
    try:
        status, took = trickle(slow_server.port, "127.0.0.3")
        alive = alive and slow_server.alive()
    finally:
        slow_server.stop()

    worst = max(flooded + newcomer) if flooded + newcomer else float("nan")
    ok = (alive and base_fail == 0 and flooded_fail == 0 and newcomer_fail == 0 and after_fail == 0
          and kept <= CAP and worst < PROBE_LIMIT_S and status is not None and status.startswith("HTTP/1.1 408")
          and took < HEADER_TIMEOUT + 3)
    figures = (f"{FLOOD} half-sent requests from 127.0.0.1 in {flood_s:.1f} s, {kept} kept (cap {CAP}); "
               f"127.0.0.2 meanwhile: {len(flooded)} of {len(flooded) + flooded_fail} answered, p50 {percentile(flooded, 50) * 1000:.1f} ms, "
               f"max {max(flooded, default=float('nan')) * 1000:.1f} ms (limit {PROBE_LIMIT_S * 1000:.0f} ms; baseline p50 "
               f"{percentile(base, 50) * 1000:.1f} ms); 70 addresses holding {len(crowd)} connections: a newcomer "
               f"{len(newcomer)} of {len(newcomer) + newcomer_fail} answered, max {max(newcomer, default=float('nan')) * 1000:.1f} ms; "
               f"slowloris a byte per 200 ms: {status!r} after {took:.1f} s (header timeout {HEADER_TIMEOUT} s); "
               f"127.0.0.1 answered again afterwards: {len(after)} of 5")
    return ok, figures
