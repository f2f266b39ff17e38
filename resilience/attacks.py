"""Shared pieces of the enumeration and guessing checks: a server that enforces what they attack,
accounts verified through the mail folder, a moved clock, and replies reduced to what an attacker
can compare.

All traffic goes to 127.0.0.1 only.
"""
import glob
import http.client
import json
import os
import re
import statistics
import time
import uuid

from common import Server

# The checks attack the limits and the verification rule, so those are on (the suite's other
# checks turn them off); later arguments win over the common ones.
STRICT = ("--allow-unverified-login=off", "--login-attempts", "5")


class Clock:
    """The server's `--clock-file`: seconds its clock runs ahead of real time."""

    def __init__(self, tmp):
        self.path = os.path.join(tmp, "clock")
        self.ahead = 0
        self.set(0)

    def set(self, seconds):
        self.ahead = seconds
        with open(self.path + ".new", "w") as f:
            f.write(str(seconds))
        os.replace(self.path + ".new", self.path)

    def advance(self, seconds):
        self.set(self.ahead + seconds)


def start(tmp, *extra):
    """A server with the limits and the verification rule on, and a clock the check can move."""
    clock = Clock(tmp)
    server = Server(tmp, os.path.join(tmp, "db.sqlite"), [*STRICT, "--clock-file", clock.path, *extra])
    return server, clock


def against_fresh_server(tmp, quick, attack, *extra):
    """`attack(server, clock, quick)` against a server of `start(tmp, *extra)`, stopped afterwards."""
    server, clock = start(tmp, *extra)
    try:
        return attack(server, clock, quick)
    finally:
        server.stop()


class Client:
    """One keep-alive connection (reopened when the server closed it); `send` returns
    (status, headers in lower case, parsed JSON, seconds)."""

    def __init__(self, port, source=None):
        self.port = port
        self.source = source  # the loopback address to connect from (127.0.0.2 is another client)
        self.c = None

    def send(self, method, path, body=None, token=None, headers=None):
        headers = {**({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = json.dumps(body).encode() if body is not None else None
        for attempt in (1, 2):
            if self.c is None:
                self.c = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=15, source_address=(self.source, 0) if self.source else None)
                self.c.connect()
            try:
                started = time.perf_counter()
                self.c.request(method, path, body=data, headers=headers)
                r = self.c.getresponse()
                raw = r.read()
                elapsed = time.perf_counter() - started
                break
            except (http.client.HTTPException, OSError):
                self.c.close()
                self.c = None
                if attempt == 2:
                    raise
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return r.status, {k.lower(): v for k, v in r.getheaders()}, parsed, elapsed

    def close(self):
        if self.c is not None:
            self.c.close()


def observable(status, parsed, headers):
    """What a client can compare between two replies: status, problem code, Retry-After (given or
    not), the Bearer challenge, the body's field names, and the shape of a sign-up's
    `signup_token` (length and alphabet; its value is new for every sign-up)."""
    keys = ",".join(sorted(parsed)) if isinstance(parsed, dict) else "-"
    code = parsed.get("code", "-") if isinstance(parsed, dict) else "-"
    retry = "retry" if headers.get("retry-after") else "-"
    challenge = headers.get("www-authenticate") or "-"
    token = parsed.get("signup_token") if isinstance(parsed, dict) else None
    shape = f" token:{len(token)}:{bool(re.fullmatch(r'[A-Za-z0-9_-]+', token))}" if isinstance(token, str) else ""
    return f"{status} {code} {retry} {challenge} {keys}{shape}"


def request(port, method, path, body=None, token=None, headers=None, source=None):
    """One request on a fresh connection (from `source`, a loopback address, when given): (status,
    headers in lower case, parsed JSON, seconds)."""
    client = Client(port, source)
    try:
        return client.send(method, path, body, token, headers)
    finally:
        client.close()


def seen(port, method, path, body=None, token=None):
    status, headers, parsed, _ = request(port, method, path, body, token)
    return observable(status, parsed, headers)


def messages(maildir, address):
    """The text of every message to `address`, oldest first."""
    found = []
    for name in sorted(glob.glob(os.path.join(maildir, "*.eml"))):
        with open(name, encoding="utf-8", errors="replace", newline="") as f:
            text = f.read()
        head = text.split("\r\n\r\n", 1)[0]
        if any(line.lower() == "to: " + address.lower() for line in head.split("\r\n")):
            found.append(text)
    return found


def code_in(message):
    """The 6-digit code of a message's plain-text part, or None (a notice has none)."""
    body = message.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in message else ""
    plain = body.split("Content-Type: text/html", 1)[0]
    runs = [run for run in re.findall(r"[0-9]+", plain) if len(run) == 6]
    return runs[0] if len(runs) == 1 else None


def wait_for_messages(maildir, address, count, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = messages(maildir, address)
        if len(found) >= count:
            return found
        time.sleep(0.05)
    return messages(maildir, address)


def unique(tag):
    return f"{tag}{uuid.uuid4().hex[:8]}"


def verified_account(server, tag):
    """Signs up, verifies with the mailed code and logs in: (nickname, address, password, access)."""
    name = unique(tag)
    email = f"{name}@resil.test"
    password = "Resil-" + uuid.uuid4().hex
    status, _, _, _ = request(server.port, "POST", "/auth/signup",
                              {"username": name, "email": email, "password": password, "mbti": "INTJ"})
    if status != 202:
        raise RuntimeError(f"sign-up of {name}: {status}")
    found = wait_for_messages(server.maildir, email, 1)
    code = code_in(found[-1]) if found else None
    if not code:
        raise RuntimeError(f"no code mailed to {email}")
    status, _, _, _ = request(server.port, "POST", "/auth/email/verify", {"email": email, "code": code})
    if status != 200:
        raise RuntimeError(f"verify of {email}: {status}")
    status, _, reply, _ = request(server.port, "POST", "/auth/login", {"username": name, "password": password})
    if status != 200:
        raise RuntimeError(f"login of {name}: {status}")
    return name, email, password, reply["access"]


def ks_statistic(a, b):
    """Two-sample Kolmogorov–Smirnov D: the largest gap between the two empirical distributions."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            i += 1
        else:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    return d


def median_ms(values):
    return statistics.median(values) * 1000
