"""The measuring instruments of the bench: wrk with the Lua scripts, the nginx ceiling, the raw
Argon2id rate, and small HTTP and process helpers. Nothing here knows which server it measures."""
import base64
import hashlib
import hmac
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PASSWORD = "bench-Passw0rd!"
CEILING_BODY = ('{"created_at":"2026-01-01T00:00:00Z","email":"user5@bench.test","email_verified":true,'
                '"id":"d7d0b2ff-c868-4887-a060-1d6f63e7283e","mbti":"INFP","username":"user5"}')


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, timeout, statuses=(200,), attempt=1):
    """Polls until `url` answers with one of `statuses` (each try waiting `attempt` seconds at
    most); returns the seconds it took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            with urllib.request.urlopen(url, timeout=attempt) as r:
                if r.status in statuses:
                    return time.monotonic() - start
        except urllib.error.HTTPError as e:
            if e.code in statuses:
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.0005)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def request(url, body=None, token=None, expect=200):
    """GET (no body) or POST `body` as JSON, with `token` as Bearer; the reply's JSON, also of an
    error status when it is `expect` (a `403 mfa_required` problem)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    req = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        if e.code == expect:
            return json.loads(e.read())
        raise


def totp(secret, at):
    """RFC 6238's code (SHA-1, 6 digits, 30-second steps) of a base32 `secret` at time `at`."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 15
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def stop_process(proc, sig=15, timeout=15):
    """Stops a process we started (SIGTERM by default), killing it if it does not go."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Wrk:
    """wrk with one of bench/lua/*.lua (the figure's script plus the shared `done` reporter)."""

    def __init__(self, tmp, duration):
        self.tmp, self.duration = tmp, duration
        self.scripts = {}

    def script(self, name):
        if name not in self.scripts:
            path = os.path.join(self.tmp, name + ".lua")
            with open(path, "w") as out:
                for part in (name, "report"):
                    with open(os.path.join(HERE, "lua", part + ".lua")) as f:
                        out.write(f.read() + "\n")
            self.scripts[name] = path
        return self.scripts[name]

    def start(self, url, name, env=None, threads=2, connections=64, duration=None):
        cmd = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration or self.duration}s",
               "--timeout", "10s", "-s", self.script(name), url]
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, **(env or {})})

    @staticmethod
    def finish(proc):
        out, _ = proc.communicate()
        for line in out.splitlines():
            if line.startswith("BENCH_JSON "):
                r = json.loads(line[len("BENCH_JSON "):])
                r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
                return r
        raise RuntimeError("wrk gave no result:\n" + out)

    def run(self, url, name, **kw):
        return self.finish(self.start(url, name, **kw))


def summarize(runs):
    """Medians over the runs, plus every run for the record."""
    return {
        "rps": statistics.median(r["rps"] for r in runs),
        "p99_ms": statistics.median(r["p99_us"] for r in runs) / 1000,
        "p50_ms": statistics.median(r["p50_us"] for r in runs) / 1000,
        "errors": sum(r["non2xx"] + r["socket_errors"] for r in runs),
        "runs": runs,
    }


class Ceiling:
    """nginx answering a fixed JSON body as large as a `/auth/me` reply: what loopback HTTP with
    these wrk settings can do on this machine at this minute."""

    def __init__(self, tmp):
        self.tmp = os.path.join(tmp, "nginx")
        os.makedirs(self.tmp)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}/"
        conf = os.path.join(self.tmp, "nginx.conf")
        t = self.tmp
        with open(conf, "w") as f:
            f.write(f"""
daemon off;
master_process on;
worker_processes 2;
pid {t}/nginx.pid;
error_log {t}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {t}/body; proxy_temp_path {t}/proxy; fastcgi_temp_path {t}/fcgi;
    uwsgi_temp_path {t}/uwsgi; scgi_temp_path {t}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{ default_type application/json; return 200 '{CEILING_BODY}'; }}
    }}
}}
""")
        self.proc = subprocess.Popen(["nginx", "-p", t, "-c", conf], stderr=subprocess.DEVNULL)
        wait_http(self.url, 5)

    def stop(self):
        stop_process(self.proc, sig=3, timeout=10)  # SIGQUIT: graceful


class Argon2:
    """libsodium's raw Argon2id at the server's parameters (bench/argon2rate.c)."""

    def __init__(self, tmp, threads):
        self.tool = os.path.join(tmp, "argon2rate")
        self.threads = threads
        subprocess.run(["gcc", "-O2", "-pthread", "-o", self.tool, os.path.join(HERE, "argon2rate.c"), "-lsodium"],
                       check=True)

    def rate(self, seconds):
        out = subprocess.run([self.tool, str(self.threads), str(seconds)], check=True, capture_output=True, text=True)
        return float(out.stdout)

    def start_beside(self, seconds, niceness=10):
        """The same raw hashing in the background at the hash pool's priority (`nice` 10), on as many
        threads: the load a saturated pool puts on the machine, with no request behind it."""
        return subprocess.Popen(["nice", "-n", str(niceness), self.tool, str(self.threads), str(seconds)],
                                stdout=subprocess.DEVNULL)

    def phc(self, password):
        """One real hash: every seeded account shares it (a million Argon2id hashes would take hours)."""
        return subprocess.run([self.tool, "--hash", password], check=True, capture_output=True, text=True).stdout.strip()


def proc_status(pid, field):
    """A `kB` field of /proc/PID/status (VmHWM, VmRSS) in KiB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def pss_kib(pid):
    """Proportional set size: resident memory with shared pages split among the processes sharing them."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_ticks(pids):
    """User and system clock ticks the processes `pids` (with all their threads) have used."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def wait_idle(pids, window=0.3, share=0.05, timeout=60):
    """Waits until the processes `pids` use less than `share` of one core over `window` seconds
    (at most `timeout` seconds): work a load left queued when wrk stopped (requests still in a
    listen backlog or a hash queue) must not run into the next target's or reference's run.
    Returns the seconds it waited."""
    hz = os.sysconf("SC_CLK_TCK")
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        before = cpu_ticks(pids)
        time.sleep(window)
        if (cpu_ticks(pids) - before) / hz < share * window:
            break
    return time.monotonic() - start


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []
