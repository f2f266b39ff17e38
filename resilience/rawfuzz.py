"""Byte-level HTTP fuzzer: a scripted corpus of malformed requests, each with the replies it must get
(smuggling through two Content-Lengths, framing, control characters, limits), plus seeded random
mutations of valid ones, each on its own socket. The server must stay up, answer /healthz, never
answer 5xx, and answer every scripted case as expected.
"""
import os
import random
import re
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

from common import HOST, Server, once

SEED = 20261130
STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


def valid_requests():
    body = b'{"username":"fuzzuser","email":"fuzz@resil.test","password":"Resil-Passw0rd!","mbti":"INTJ"}'
    login = b'{"username":"fuzzuser","password":"Resil-Passw0rd!"}'
    def post(path, b):
        return (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(b)}\r\n\r\n").encode() + b
    return [
        f"GET /auth/policy HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode(),
        f"GET /auth/me HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer abc.def.ghi\r\n\r\n".encode(),
        post("/auth/signup", body),
        post("/auth/login", login),
        post("/auth/refresh", b'{"refresh":"xyz"}'),
        post("/auth/email/verify", b'{"email":"fuzz@resil.test","code":"123456"}'),
        (f"POST /auth/login HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\n\r\n").encode() + b"%x\r\n" % len(login) + login + b"\r\n0\r\n\r\n",
        f"PATCH /auth/me HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 2\r\n\r\n{{}}".encode(),
    ]


def scripted():
    """Malformed (and a few odd but valid) requests, each with the replies it must get: a list of
    the statuses allowed for each reply in turn (so their number is checked too: a second reply to
    a smuggled body is a failure), or None where only "no 5xx" is asked."""
    h = f"Host: {HOST}\r\n".encode()
    big = b"A" * 100_000
    smuggled = b"GET /auth/me HTTP/1.1\r\n" + h + b"\r\n"
    login = b"POST /auth/login HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\n"
    bad, framing = {400}, {400}
    c = [
        (b"\r\n\r\n", []), (b"GET\r\n\r\n", [bad]), (b"GET / HTTP/9.9\r\n\r\n", [{505}]), (b"GET /auth/policy\r\n\r\n", [bad]),
        (b"GET  /auth/policy  HTTP/1.1\r\n" + h + b"\r\n", [bad]), (b"G\x00T /auth/policy HTTP/1.1\r\n" + h + b"\r\n", [bad]),
        (b"GET /auth/\x00policy HTTP/1.1\r\n" + h + b"\r\n", [bad]), (b"GET /\xff\xfe HTTP/1.1\r\n" + h + b"\r\n", [bad]),
        (b"GET /auth/policy%00 HTTP/1.1\r\n" + h + b"\r\n", [bad]), (b"GET /auth/policy?x=%0d%0a HTTP/1.1\r\n" + h + b"\r\n", [bad]),
        (b"GET //auth/policy HTTP/1.1\r\n" + h + b"\r\n", [{404}]), (b"GET /auth/../auth/policy HTTP/1.1\r\n" + h + b"\r\n", [{404}]),
        (b"GET http://127.0.0.1/auth/policy HTTP/1.1\r\n" + h + b"\r\n", [{200}]),
        (b"GET * HTTP/1.1\r\n" + h + b"\r\n", [{404}]), (b"OPTIONS * HTTP/1.1\r\n" + h + b"\r\n", [{404}]),
        (b"FOO /auth/policy HTTP/1.1\r\n" + h + b"\r\n", [{405}]), (b"get /auth/policy HTTP/1.1\r\n" + h + b"\r\n", [{405}]),
        (b"GET /" + big + b" HTTP/1.1\r\n" + h + b"\r\n", [{414}]),
        (b"GET /auth/policy?" + b"&".join(b"a%d=1" % i for i in range(600)) + b" HTTP/1.1\r\n" + h + b"\r\n", [{414}]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"X-Big: " + big + b"\r\n\r\n", [{431}]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"".join(b"X-H%d: v\r\n" % i for i in range(5000)) + b"\r\n", [{431}]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"NoColonHeader\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b" folded: header\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"X-Folded: a\r\n b\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"X: \x00\x01\x02\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"X: a\rb\r\n\r\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\n" + h.replace(b"\r\n", b"\n") + b"\n", [framing]),
        (b"GET /auth/policy HTTP/1.1\r\n\r\n", [bad]),  # no Host
        (b"GET /auth/policy HTTP/1.1\r\n" + h + h + b"\r\n", [bad]),
        (login + b"Content-Length: -1\r\n\r\n{}", [bad]),
        (login + b"Content-Length: +2\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 0x2\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 99999999999999999999\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 2, 2\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 5\r\nContent-Length: 7\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 0\r\nContent-Length: %d\r\n\r\n" % len(smuggled) + smuggled, [bad]),
        (login + b"Content-Length: abc\r\n\r\n{}", [bad]),
        (login + b"Content-Length: 2\r\n\r\n{}garbage-after", [{400, 422}]),
        (login + b"Content-Length: 100\r\n\r\n{}", []),  # the client stops before its body ends
        (login + b"Content-Length: 20000000\r\n\r\n" + big, [{413}]),
        (login + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", [{411}]),
        (login + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}\r\n0\r\n\r\n", [{411}]),
        (login + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}0\r\n\r\n", [{411}]),
        (login + b"Transfer-Encoding: chunked\r\n\r\n-2\r\n{}\r\n0\r\n\r\n", [{411}]),
        (login + b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n\r\n" % len(smuggled) + smuggled, [bad]),
        (login + b"Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", [{411}]),
        (login + b"Transfer-Encoding: chunked\r\n\r\n2;ext=" + big + b"\r\n{}\r\n0\r\n\r\n", [{411}]),
        (login + b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc", [bad]),
        (login + b"Content-Length: 22\r\n\r\n{\"username\":\"\xc3\x28\"}\x00\x00", []),  # 19 of 22 bytes, then the end
        (b"POST /auth/signup HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\nContent-Length: 6\r\n\r\n\x00\x00\x00\x00\x00\x00", [bad]),
        (b"POST /auth/signup HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\nContent-Length: 3000\r\n\r\n" + b"[" * 3000, [bad]),
        (b"POST /auth/signup HTTP/1.1\r\n" + h + b"Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{\"a\":1e9999}", [{400, 422}]),
        (b"POST /auth/refresh HTTP/1.1\r\n" + h + b"Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", [{415}]),
        (b"GET /auth/me HTTP/1.1\r\n" + h + b"Authorization: Bearer \xff\xff.\x00.\r\n\r\n", [framing]),
        (b"GET /auth/me HTTP/1.1\r\n" + h + b"Authorization: Bearer " + b"A" * 8000 + b".e30.x\r\n\r\n", [{401}]),
        (b"GET /auth/me HTTP/1.1\r\n" + h + b"Authorization: Basic Zm9vOmJhcg==\r\n\r\n", [{401}]),
        (b"GET /auth/me HTTP/1.1\r\n" + h + b"Authorization: Bearer eyJhbGciOiJub25lIn0.e30.\r\n\r\n", [{401}]),
        ((b"GET /auth/policy HTTP/1.1\r\n" + h + b"\r\n") * 50, [{200}] * 50),  # pipelined
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"\r\n" + b"\x16\x03\x01\x02\x00garbage\r\n\r\n", [{200}, bad]),
        (b"GET /auth/policy HTTP/1.1\r\n" + h + b"\r\nGARBAGE GARBAGE\r\n\r\n" * 10, [{200}, bad]),
        (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(256)), [bad]),  # TLS ClientHello-ish
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", [{505}]),
        (bytes(range(256)) * 10, [bad]),
    ]
    return c


def corpus():
    return [payload for payload, _ in scripted()]


def mutate(rnd, data):
    data = bytearray(data)
    for _ in range(rnd.randint(1, 8)):
        op = rnd.randrange(7)
        pos = rnd.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(pos, len(data) - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1:
            data[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 16)))
        elif op == 2 and data:
            del data[pos:pos + rnd.randint(1, 16)]
        elif op == 3 and data:
            a = rnd.randrange(len(data))
            data[pos:pos] = data[a:a + rnd.randint(1, 64)] * rnd.randint(1, 20)
        elif op == 4:
            data[pos:pos] = rnd.choice([b"\r\n", b"\n", b"\x00", b":", b" ", b"\r\n\r\n", b"%", b"\xc0\x80",
                                        b"Content-Length: 9\r\n", b"Transfer-Encoding: chunked\r\n", b"\xff"])
        elif op == 5 and data:
            data[min(pos, len(data) - 1)] = rnd.choice(b"0123456789\x00\x7f\xff ")
        elif op == 6:
            data = data[:pos]
    return bytes(data)


def send_one(port, payload):
    """Send the bytes, half-close, read until the server closes; return the statuses seen."""
    try:
        with socket.create_connection((HOST, port), timeout=1) as s:
            try:
                s.sendall(payload)
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            got = b""
            while len(got) < 1_000_000:
                try:
                    chunk = s.recv(65536)
                except OSError:
                    break
                if not chunk:
                    break
                got += chunk
            return [int(m.group(1)) for m in STATUS.finditer(got)], None
    except OSError as e:
        return [], e


def run(tmp, quick):
    mutations = 2000 if quick else 20000
    server = Server(tmp, os.path.join(tmp, "fuzz.sqlite"))
    rnd = random.Random(SEED)
    seeds = valid_requests()
    script = scripted()
    cases = [(payload, expected) for payload, expected in script]
    cases += [(mutate(rnd, rnd.choice(seeds + corpus()[:20])), None) for _ in range(mutations)]
    counts = {"replies": 0, "5xx": 0, "505": 0, "connect_errors": 0, "wrong": 0}
    bad, wrong = [], []
    lock = threading.Lock()

    def one(case):
        payload, expected = case
        statuses, err = send_one(server.port, payload)
        with lock:
            counts["replies"] += len(statuses)
            if err is not None:
                counts["connect_errors"] += 1
            counts["505"] += statuses.count(505)
            # 505 HTTP Version Not Supported is the right answer to HTTP/2.0 or HTTP/9.9, not a fault.
            fives = [s for s in statuses if s >= 500 and s != 505]
            if fives:
                counts["5xx"] += len(fives)
                if len(bad) < 10:
                    bad.append((fives[0], payload[:200]))
            if expected is not None and (len(statuses) != len(expected)
                                         or any(s not in allowed for s, allowed in zip(statuses, expected))):
                counts["wrong"] += 1
                if len(wrong) < 10:
                    wrong.append((statuses[:5], [sorted(a) for a in expected[:5]], payload[:120]))

    with ThreadPoolExecutor(32) as pool:
        list(pool.map(one, cases))
    alive = server.alive()
    try:
        health, _ = once(server.port, "GET", "/healthz", timeout=5)
    except Exception:
        health = None
    server.stop()
    for status, payload in bad:
        print(f"  rawfuzz 5xx {status} for {payload!r}")
    for got, expected, payload in wrong:
        print(f"  rawfuzz got {got}, expected {expected} for {payload!r}")
    ok = alive and health == 200 and counts["5xx"] == 0 and counts["wrong"] == 0
    figures = (f"{len(cases)} cases ({len(script)} scripted with their expected replies + {mutations} mutations, seed {SEED}): "
               f"{counts['replies']} replies, {counts['wrong']} scripted cases answered otherwise, "
               f"{counts['5xx']} 5xx (plus {counts['505']} 505 to bad versions), {counts['connect_errors']} connect errors; "
               f"alive afterwards: {alive}, /healthz {health}")
    return ok, figures
