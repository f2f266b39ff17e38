"""Race: the same thing at once, on two servers over one PostgreSQL.

A throwaway cluster (`scripts/pg-test-cluster.sh`) backs two release servers. Round after round,
requests about one row are written to both servers within microseconds (all sockets connected
first): eight (full: sixteen) refreshes of one token, a logout during four refreshes, logins to
one account, sign-ups of one nickname and of one address, checks of one right and of one wrong
code, and requests of one client address against the shared per-address limit. Each race must
end in its designed answers (the same pair for every refresh, one account per nickname, one
verification per code, exactly the limit let through, ...), no reply may be a 5xx, and neither
server may log a `server_error` or count one in `/metrics`. SKIP (not FAIL) only when PostgreSQL
cannot be installed or started. The cluster is always removed.
"""
import base64
import glob
import http.client
import json
import os
import re
import socket
import time
import uuid

from common import HOST, Server, on_cluster, once


def burst(requests, timeout=30):
    """Sends every (port, method, path, body, token, headers) at once; returns [(status, parsed JSON)]."""
    socks = []
    try:
        for port, *_ in requests:
            s = socket.create_connection((HOST, port), timeout=timeout)
            socks.append(s)
        for s, (port, method, path, body, token, headers) in zip(socks, requests):
            data = json.dumps(body).encode() if body is not None else b""
            head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
            if body is not None:
                head += "Content-Type: application/json\r\n"
            if token:
                head += f"Authorization: Bearer {token}\r\n"
            for name, value in (headers or {}).items():
                head += f"{name}: {value}\r\n"
            s.sendall(head.encode() + b"\r\n" + data)
        replies = []
        for s in socks:
            r = http.client.HTTPResponse(s)
            r.begin()
            raw = r.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            replies.append((r.status, parsed))
        return replies
    finally:
        for s in socks:
            s.close()


def req(port, method, path, body=None, token=None, headers=None):
    return (port, method, path, body, token, headers)


def code_of(reply):
    return reply[1].get("code") if isinstance(reply[1], dict) else None


def jti(access):
    payload = access.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).get("jti")


def mailed_code(maildir, email, timeout=30):
    """The only six-digit number in the newest message to `email`, waiting for delivery."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = []
        for path in sorted(glob.glob(os.path.join(maildir, "*.eml"))):
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read()
            if f"To: {email}\r\n" in text:
                found.append(text)
        if found:
            runs = [r for r in re.findall(r"[0-9]+", found[-1].split("\r\n\r\n", 1)[1]) if len(r) == 6]
            if len(runs) == 1:
                return runs[0]
        time.sleep(0.05)
    raise RuntimeError(f"no code mailed to {email}")


class Race:
    """Counts of one race: rounds run, rounds that went wrong (with the first few described), 5xx."""

    def __init__(self, name):
        self.name, self.rounds, self.wrong, self.fivexx, self.notes = name, 0, 0, 0, []

    def record(self, replies, fine, note):
        self.rounds += 1
        self.fivexx += sum(1 for status, _ in replies if status >= 500)
        if not fine:
            self.wrong += 1
            if len(self.notes) < 3:
                self.notes.append(note)


def summary(replies):
    return ", ".join(f"{s} {code_of((s, b)) or ''}".strip() for s, b in replies)


def signup(port, name=None, email=None):
    tag = uuid.uuid4().hex[:10]
    name, email = name or f"rc{tag}", email or f"rc{tag}@race.test"
    body = {"username": name, "email": email, "password": f"Pw-{uuid.uuid4()}", "mbti": "ENFP"}
    body["password_confirmation"] = body["password"]
    return body


def login(port, account):
    status, reply = once(port, "POST", "/auth/login", {"username": account["username"], "password": account["password"]})
    if status != 200:
        raise RuntimeError(f"login: {status} {reply}")
    return reply


def refresh_race(a, b, rounds, width, race):
    account = signup(a)
    assert once(a, "POST", "/auth/signup", account)[0] == 202
    for n in range(rounds):
        pair = login(b, account)
        replies = burst([req(a if n % 2 == 0 or i < width // 2 else b, "POST", "/auth/refresh", {"refresh": pair["refresh"]})
                         for i in range(width)])
        ok = [body for status, body in replies if status == 200]
        fine = len(ok) == width and len({p["refresh"] for p in ok}) == 1 and len({jti(p["access"]) for p in ok}) == 1
        if fine:
            fine = once(b, "POST", "/auth/refresh", {"refresh": ok[0]["refresh"]})[0] == 200
        race.record(replies, fine, f"round {n}: {summary(replies)}")


def logout_race(a, b, rounds, race):
    account = signup(a)
    assert once(a, "POST", "/auth/signup", account)[0] == 202
    for n in range(rounds):
        pair = login(a, account)
        replies = burst([req(b, "POST", "/auth/logout", token=pair["access"])]
                        + [req(a, "POST", "/auth/refresh", {"refresh": pair["refresh"]}) for _ in range(4)])
        rotated = [body["refresh"] for status, body in replies[1:] if status == 200]
        fine = replies[0][0] == 204 and len(set(rotated)) <= 1 and all(
            s == 200 or code_of((s, body)) == "session_revoked" for s, body in replies[1:])
        after = once(b, "POST", "/auth/refresh", {"refresh": rotated[0] if rotated else pair["refresh"]})
        fine = fine and code_of(after) == "session_revoked"
        race.record(replies, fine, f"round {n}: {summary(replies)}; then {after[0]}")


def login_race(a, b, rounds, width, race):
    account = signup(a)
    assert once(a, "POST", "/auth/signup", account)[0] == 202
    body = {"username": account["username"], "password": account["password"]}
    for n in range(rounds):
        replies = burst([req(a if i % 2 == 0 else b, "POST", "/auth/login", body) for i in range(width)])
        successes = sum(1 for s, _ in replies if s == 200)
        # Tries are counted before the password is checked: five always pass, the rest may wait (429).
        fine = successes >= 5 and all(s == 200 or code_of((s, r)) == "rate_limited" for s, r in replies)
        race.record(replies, fine, f"round {n}: {summary(replies)}")


def signup_race(a, b, rounds, width, nickname_race, address_race):
    for n in range(rounds):
        nickname = f"nk{uuid.uuid4().hex[:10]}"
        replies = burst([req(a if i % 2 == 0 else b, "POST", "/auth/signup", signup(a, name=nickname)) for i in range(width)])
        accepted = sum(1 for s, _ in replies if s == 202)
        taken = sum(1 for r in replies if code_of(r) == "username_taken")
        nickname_race.record(replies, accepted == 1 and taken == width - 1, f"round {n}: {summary(replies)}")

        email = f"ad{uuid.uuid4().hex[:10]}@race.test"
        accounts = [signup(a, email=email) for _ in range(width)]
        replies = burst([req(a if i % 2 == 0 else b, "POST", "/auth/signup", body) for i, body in enumerate(accounts)])
        created = sum(1 for body in accounts
                      if once(a, "POST", "/auth/login", {"username": body["username"], "password": body["password"]})[0] == 200)
        # The address's code cooldown is claimed first: one sign-up goes through, the rest wait.
        limited = sum(1 for r in replies if code_of(r) == "rate_limited")
        address_race.record(replies, sum(1 for s, _ in replies if s == 202) == 1 and limited == width - 1 and created == 1,
                            f"round {n}: {summary(replies)}, {created} accounts")


def code_race(a, b, maildir, rounds, width, right_race, wrong_race):
    for n in range(rounds):
        right, wrong = signup(a), signup(b)
        assert once(a, "POST", "/auth/signup", right)[0] == 202 and once(b, "POST", "/auth/signup", wrong)[0] == 202
        code = mailed_code(maildir, right["email"])
        replies = burst([req(a if i % 2 == 0 else b, "POST", "/auth/email/verify", {"email": right["email"], "code": code})
                         for i in range(width)])
        verified = sum(1 for s, _ in replies if s == 200)
        invalid = sum(1 for r in replies if code_of(r) == "code_invalid")
        right_race.record(replies, verified == 1 and invalid == width - 1, f"round {n}: {summary(replies)}")

        bad = f"{(int(mailed_code(maildir, wrong['email'])) + 1) % 1000000:06d}"
        replies = burst([req(a if i % 2 == 0 else b, "POST", "/auth/email/verify", {"email": wrong["email"], "code": bad})
                         for i in range(width)])
        invalid = sum(1 for r in replies if code_of(r) == "code_invalid")
        spent = sum(1 for r in replies if code_of(r) == "too_many_attempts")
        # Five tries: four answer code_invalid, the fifth and every later one too_many_attempts.
        wrong_race.record(replies, invalid == 4 and spent == width - 4, f"round {n}: {summary(replies)}")


def address_race(a, b, rounds, limit, race):
    for n in range(rounds):
        address = f"10.{n // 250 % 250}.{n % 250}.{uuid.uuid4().int % 250 + 1}"
        replies = burst([req(a if i % 2 == 0 else b, "GET", "/auth/policy", headers={"X-Forwarded-For": address})
                         for i in range(limit + limit // 2)])
        passed = sum(1 for s, _ in replies if s == 200)
        limited = sum(1 for s, _ in replies if s == 429)
        race.record(replies, passed == limit and limited == limit // 2, f"round {n} ({address}): {passed} passed, {limited} limited")


def server_errors(port):
    """The sum of http_server_errors_total in a server's /metrics."""
    c = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        c.request("GET", "/metrics")
        text = c.getresponse().read().decode()
    finally:
        c.close()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("http_server_errors_total{"))


def run(tmp, quick):
    return on_cluster(lambda url, _directory: exercise(tmp, url, quick))


def exercise(tmp, url, quick):
    rounds, width = (50, 8) if quick else (500, 16)
    few = 20 if quick else 150
    limit = 20
    # Back-off on (five tries per account), and the shared per-address counter on a second pair.
    extra = ["--login-attempts", "5", "--database-pool", "8"]
    servers = [Server(tmp, url, extra), Server(tmp, url, extra)]
    limited = os.path.join(tmp, "limited")
    os.makedirs(limited, exist_ok=True)
    counted = ["--ip-rate-limit", str(limit), "--ip-rate-limit-store", "database", "--trusted-proxy", HOST]
    servers += [Server(limited, url, extra + counted), Server(limited, url, extra + counted)]
    a, b, la, lb = (s.port for s in servers)
    races = {name: Race(name) for name in
             ["refresh", "logout+refresh", "logins", "one nickname", "one address", "right code", "wrong code", "address counter"]}

    try:
        refresh_race(a, b, rounds, width, races["refresh"])
        logout_race(a, b, few, races["logout+refresh"])
        login_race(a, b, few, width, races["logins"])
        # Codes before sign-ups: the one-address race queues a notice per refused sign-up, and
        # the outbox delivers oldest first.
        code_race(a, b, servers[0].maildir, few, width, races["right code"], races["wrong code"])
        signup_race(a, b, few, width, races["one nickname"], races["one address"])
        address_race(la, lb, rounds, limit, races["address counter"])
        counted_errors = sum(server_errors(s.port) for s in servers)
    finally:
        alive = all(s.alive() for s in servers)
        for s in servers:
            s.stop()
    logged = 0
    for folder in (tmp, limited):
        with open(os.path.join(folder, "server.log"), encoding="utf-8", errors="replace") as f:
            logged += sum(1 for line in f if '"event":"server_error"' in line)
    for race in races.values():
        for note in race.notes:
            print(f"  race {race.name}: {note}")
    ok = alive and counted_errors == 0 and logged == 0 and all(r.wrong == 0 and r.fivexx == 0 for r in races.values())
    parts = [f"{r.name} {r.rounds - r.wrong}/{r.rounds} rounds right, {r.fivexx} 5xx" for r in races.values()]
    figures = (f"two servers on one PostgreSQL, {width} requests at once: " + "; ".join(parts)
               + f"; server_error lines {logged}, http_server_errors_total {counted_errors:.0f}; servers alive: {alive}")
    return ok, figures
