"""Shared pieces of the resilience suite: building and starting the server, small HTTP helpers.

All traffic goes to 127.0.0.1 only.
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import resource
import signal
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SERVER = os.path.join(ROOT, ".build", "release", "account-server")
CLUSTER = os.path.join(ROOT, "scripts", "pg-test-cluster.sh")
HOST = "127.0.0.1"
PASSWORD = "Resil-Passw0rd!"
MBTIS = "ISTJ ISFJ INFJ INTJ ISTP ISFP INFP INTP ESTP ESFP ENFP ENTP ESTJ ESFJ ENFJ ENTJ".split()


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def build():
    log("building the release server ...")
    subprocess.run(["swift", "build", "-c", "release", "--product", "account-server"], cwd=ROOT, check=True)


def raise_fd_limit(want=8192):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Server:
    """One account-server process on a port it picked itself, started from a shell with `ulimit -n 8192`.

    `db` is a SQLite file path, or a full `postgres://` URL.
    """

    def __init__(self, tmp, db, extra=()):
        self.tmp, self.db = tmp, db
        self.maildir = os.path.join(tmp, "mail")
        os.makedirs(self.maildir, exist_ok=True)
        url = db if db.startswith("postgres://") else f"sqlite:{db}"
        args = [SERVER, "serve", "--host", HOST, "--port", "0", "--database-url", url,
                "--mail", f"file://{self.maildir}", "--allow-unverified-login", "--ip-rate-limit", "0",
                "--login-attempts", "0", "--hash-memory", "64", "--hash-passes", "1", "--access-log", "off",
                *extra]
        cmd = "ulimit -n 8192 2>/dev/null || ulimit -n $(ulimit -Hn); exec " + " ".join(f"'{a}'" for a in args)
        self.stderr = open(os.path.join(tmp, "server.log"), "a")
        self.proc = subprocess.Popen(["bash", "-c", cmd], stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.pid = self.proc.pid  # `exec` keeps the pid
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if "listening on http://" in line:
                self.port = int(line.strip().rsplit(":", 1)[1].split("/")[0])
                break
        if self.port is None:
            self.proc.kill()
            raise RuntimeError("server did not start; see " + os.path.join(tmp, "server.log"))
        # Keep reading stdout so the server never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for _ in self.proc.stdout:
            pass

    def alive(self):
        return self.proc.poll() is None

    def rss_kib(self):
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def kill9(self):
        os.kill(self.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode


def conn(port, timeout=10):
    return http.client.HTTPConnection(HOST, port, timeout=timeout)


def call(c, method, path, body=None, token=None):
    """One request on connection `c`; returns (status, parsed JSON or None)."""
    status, _, parsed = exchange(c, method, path, body, token)
    return status, parsed


def exchange(c, method, path, body=None, token=None):
    """One request on connection `c`; returns (status, Content-Type, parsed JSON or None)."""
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = "Bearer " + token
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    raw = r.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return r.status, r.getheader("Content-Type") or "", parsed


def once(port, method, path, body=None, token=None, timeout=10):
    c = conn(port, timeout)
    try:
        return call(c, method, path, body, token)
    finally:
        c.close()


def signup_body(name):
    return {"username": name, "email": f"{name}@resil.test", "password": PASSWORD, "mbti": MBTIS[hash(name) % 16]}


def totp(secret_b32, offset_steps=0):
    """The authenticator code of the current 30-second step plus `offset_steps` (RFC 6238, SHA-1)."""
    secret = base64.b32decode(secret_b32 + "=" * (-len(secret_b32) % 8))
    mac = hmac.new(secret, struct.pack(">Q", int(time.time()) // 30 + offset_steps), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def mutate(rnd, raw, inserts=()):
    """`raw` with one to three random byte edits: a bit flipped, a byte replaced, the rest cut off,
    a byte inserted, and, when `inserts` are given, one of them inserted (a fuzzer's own
    troublemakers, such as CBOR heads)."""
    out = bytearray(raw)
    for _ in range(rnd.randint(1, 3)):
        if not out:
            break
        i = rnd.randrange(len(out))
        kind = rnd.randrange(5 if inserts else 4)
        if kind == 0:
            out[i] ^= 1 << rnd.randrange(8)
        elif kind == 1:
            out[i] = rnd.randrange(256)
        elif kind == 2:
            del out[i:]
        elif kind == 3:
            out.insert(i, rnd.randrange(256))
        else:
            out[i:i] = rnd.choice(inserts)
    return bytes(out)


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))
    return s[k]


def cluster(*args):
    """Runs scripts/pg-test-cluster.sh with `args`; returns (exit status, its output)."""
    p = subprocess.run([CLUSTER, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stdout + p.stderr).strip()


def on_cluster(body):
    """Runs body(url, directory) on a new throwaway PostgreSQL cluster, removed afterwards whatever
    happens; ("SKIP", why) when no cluster can be started."""
    rc, out = cluster("start")
    lines = out.splitlines()
    if rc != 0 or len(lines) < 2 or not lines[-2].startswith("postgres://"):
        return "SKIP", f"PostgreSQL could not be started: {out[-300:]!r}"
    url, directory = lines[-2], lines[-1]
    try:
        return body(url, directory)
    finally:
        cluster("stop", directory)
