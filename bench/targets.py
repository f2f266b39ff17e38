"""What the bench measures: account-server processes (a binary, a store, flags) and the original
backend (Django REST framework + SimpleJWT under gunicorn), each on a database of its own that
holds the same seeded accounts. Every target can be provisioned for a scale, started, asked for an
access token and a file of unused refresh tokens, and stopped."""
import filecmp
import os
import shutil
import subprocess
import sys
import time
import urllib.request

from tools import (HERE, PASSWORD, ROOT, children, free_port, log, post, proc_status, pss_kib, request, stop_process, totp,
                   wait_http, wait_idle)

PEER_DIR = os.path.join(HERE, "django_peer")
PEER_VENV = os.path.join(ROOT, ".build", "bench-peer-venv")
PEER_WORKERS = 5  # gunicorn's advice for sync workers: 2 x cores + 1, on this 2-core machine
SEED_SCHEMA_UNKNOWN = 3  # bench/seed.py's exit status for a schema it cannot write


class Scale:
    """What every target of one scale shares: the account count, a work folder, the seeded hash,
    the PostgreSQL cluster, and how many refresh sessions each run gets."""

    def __init__(self, accounts, tmp, phc, runs, sessions_per_run, pg):
        self.accounts, self.tmp, self.phc, self.runs = accounts, tmp, phc, runs
        self.sessions_per_run, self.pg = sessions_per_run, pg
        self.pool = runs * sessions_per_run

    def pool_tokens(self, tokens_file, run):
        """Run `run`'s slice of the pool's refresh tokens, which bench/seed.py wrote to `tokens_file`."""
        path = f"{tokens_file}.{run}"
        if not os.path.exists(path):
            first = run * self.sessions_per_run
            with open(tokens_file) as f:
                lines = f.readlines()[first:first + self.sessions_per_run]
            with open(path, "w") as f:
                f.writelines(lines)
        return path


class AccountServer:
    """`account-server serve` with the deployment's defaults, except the two abuse limits that
    would throttle wrk's single client address, and mail to files instead of an SMTP relay.

    `copy_of`: start from that target's seeded database (copied, then migrated) instead of seeding
    one of its own; only a target of the same binary, so every binary runs on a database it
    migrated and was seeded for itself (a newer binary may refuse an older one's schema)."""

    kind = "server"

    def __init__(self, key, label, binary, store="sqlite", access_log=True, copy_of=None,
                 figures=("startup", "me", "refresh", "login", "signup", "me_under_login", "admin_search"), extra_args=()):
        self.key, self.label, self.binary, self.store = key, label, binary, store
        self.extra_args = list(extra_args)
        if copy_of is not None and copy_of.binary != binary:
            raise ValueError(f"{key} would start from {copy_of.key}'s database, which another binary made")
        self.access_log, self.copy_of, self.figures = access_log, copy_of, set(figures)
        self.proc = None
        self.info = {}

    # -- database

    def provision(self, scale):
        self.scale = scale
        self.info = {"store": self.store, "access_log": self.access_log}
        self.dir = os.path.join(scale.tmp, self.key.replace("@", "-"))
        os.makedirs(os.path.join(self.dir, "mail"))
        if self.store == "sqlite":
            self.url = f"sqlite:{self.dir}/db.sqlite"
        else:
            self.url = scale.pg.database(self.key)
        started = time.monotonic()
        self.tokens_file = os.path.join(self.dir, "pool-tokens.txt")
        if self.copy_of is not None:
            self.tokens_file = self.copy_of.tokens_file
            self._copy_from(self.copy_of)
            self._migrate()
            self.info["copy_of"] = self.copy_of.key
            self.info["copy_and_migrate_s"] = round(time.monotonic() - started, 2)
            return
        self._migrate()
        seeded = subprocess.run([sys.executable, os.path.join(HERE, "seed.py"), self.url, str(scale.accounts),
                                 str(scale.pool), scale.phc, "--tokens", self.tokens_file, "--server", self.binary])
        if seeded.returncode == SEED_SCHEMA_UNKNOWN:
            raise RuntimeError(f"bench/seed.py does not know {self.binary}'s schema; teach it the new columns")
        seeded.check_returncode()
        self.info["seed_s"] = round(time.monotonic() - started, 1)

    def _migrate(self):
        subprocess.run([self.binary, "migrate", "--database-url", self.url], capture_output=True, text=True, check=True)

    def _copy_from(self, other):
        if self.store == "sqlite":
            shutil.copyfile(other.url[len("sqlite:"):], self.url[len("sqlite:"):])
        else:
            self.scale.pg.copy(other.key, self.key)

    # -- process

    def start(self):
        """Starts the server; returns milliseconds from exec to the first `200 /healthz`."""
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        args = [self.binary, "serve", "--database-url", self.url, "--port", str(port),
                "--mail", f"file://{self.dir}/mail", "--ip-rate-limit", "0", "--login-attempts", "0"]
        if not self.access_log:
            args += ["--access-log", "off"]
        args += self.extra_args
        # As a process manager would: both streams appended to a file.
        self.log_path = os.path.join(self.dir, "server.log")
        # wrk's 64 connections all come from 127.0.0.1, the per-address connection cap's default:
        # off, through the environment twin so older binaries (which lack it) start too.
        env = dict(os.environ, ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS="0")
        with open(self.log_path, "a") as out:
            started = time.monotonic()
            self.proc = subprocess.Popen(args, stdout=out, stderr=out, env=env)
        wait_http(self.base + "/healthz", 30)
        return round((time.monotonic() - started) * 1000, 1)

    def stop(self):
        stop_process(self.proc)
        self.proc = None

    def settle(self):
        """Waits until the server is idle: when wrk stops, the logins it had sent are still hashed
        (up to 16 in the pool's queue). Nothing to wait for when it is not running (start-up)."""
        if self.proc is not None:
            wait_idle([self.proc.pid])

    def startup(self):
        """One start-up measurement: start, first 200, stop."""
        try:
            return self.start()
        finally:
            self.stop()

    # -- what the figures need

    def access_token(self):
        return post(self.base + "/auth/login", {"login": "user1", "password": PASSWORD})["access"]

    def refresh_tokens(self, run):
        return self.scale.pool_tokens(self.tokens_file, run)

    def operator_token(self):
        """An access token of `benchop` (seeded) as an operator: its authenticator app turned on,
        the admin role granted with `account-server admin grant`, and a login finished with a
        recovery code (a second factor in `amr`). `None` when this binary has no admin API."""
        try:
            login = post(self.base + "/auth/login", {"login": "benchop", "password": PASSWORD})
            secret = request(self.base + "/auth/mfa/totp", {"password": PASSWORD}, login["access"])["secret"]
            codes = request(self.base + "/auth/mfa/totp/confirm", {"code": totp(secret, time.time())},
                            login["access"])["recovery_codes"]
            subprocess.run([self.binary, "admin", "grant", "benchop", "--reason", "bench", "--database-url", self.url],
                           check=True, capture_output=True)
            challenge = request(self.base + "/auth/login", {"login": "benchop", "password": PASSWORD}, expect=403)
            return post(self.base + "/auth/mfa/verify", {"mfa_token": challenge["mfa_token"], "recovery_code": codes[0]})["access"]
        except (OSError, KeyError, subprocess.CalledProcessError) as e:
            log(f"[{self.key}] no operator token ({e}); the admin search is not measured")
            return None

    def middle_cursor(self, token, accounts):
        """The `next` cursor of the account created a third of the way in (for a page deep in the list)."""
        middle = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - accounts + accounts // 3))
        page = request(self.base + f"/admin/api/users?limit=1&created_before={middle}", None, token)
        return page["next"] or ""

    def key_cursor(self, token):
        """The `next` cursor of a nickname search after `user5` (for a page deep in key order)."""
        page = request(self.base + "/admin/api/users?q=user5&limit=1", None, token)
        return page["next"] or ""

    def memory(self):
        hwm = proc_status(self.proc.pid, "VmHWM")
        return {"peak_rss_mib": round(hwm / 1024, 1)} if hwm else {}

    def access_log_stats(self):
        """Access-log lines the file got, and lines the server says it dropped (when it counts them)."""
        stats = {}
        if self.access_log:
            with open(self.log_path, "rb") as f:
                stats["access_log_lines"] = sum(1 for line in f if b'"event":"request"' in line)
        try:
            with urllib.request.urlopen(self.base + "/metrics", timeout=5) as r:
                for line in r.read().decode().splitlines():
                    if line.startswith("log_lines_dropped_total"):
                        stats["log_lines_dropped"] = float(line.split()[-1])
        except OSError:
            pass
        return stats


class DjangoPeer:
    """The original app's backend: DRF + SimpleJWT (rotation, blacklist) under gunicorn on SQLite
    (WAL), built from PyPI into a virtual environment under .build/ (bench/django_peer/)."""

    kind = "peer"
    figures = {"me", "refresh", "login", "signup", "me_under_login"}

    def __init__(self, key="peer", label="original backend (DRF + SimpleJWT, gunicorn)"):
        self.key, self.label = key, label
        self.proc = None
        self.info = {"workers": PEER_WORKERS, "worker_class": "sync"}

    @staticmethod
    def install():
        """The virtual environment with the pinned stack; rebuilt when requirements.txt changes."""
        wanted = os.path.join(PEER_DIR, "requirements.txt")
        stamp = os.path.join(PEER_VENV, "requirements.txt")
        if os.path.exists(stamp) and filecmp.cmp(wanted, stamp, shallow=False):
            return
        log("building the original backend's virtual environment from PyPI ...")
        shutil.rmtree(PEER_VENV, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", PEER_VENV], check=True)
        subprocess.run([os.path.join(PEER_VENV, "bin", "pip"), "install", "-q", "-r", wanted], check=True)
        shutil.copyfile(wanted, stamp)

    def _env(self):
        return {**os.environ, "PEER_DB": os.path.join(self.dir, "peer.sqlite"),
                "PEER_MAIL_DIR": os.path.join(self.dir, "mail"), "PYTHONDONTWRITEBYTECODE": "1"}

    def provision(self, scale):
        self.scale = scale
        self.dir = os.path.join(scale.tmp, self.key)
        os.makedirs(os.path.join(self.dir, "mail"))
        python = os.path.join(PEER_VENV, "bin", "python")
        started = time.monotonic()
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=PEER_DIR, env=self._env(), check=True)
        subprocess.run([python, "seed.py", str(scale.accounts), PASSWORD, str(scale.sessions_per_run), str(scale.runs),
                        os.path.join(self.dir, "tokens-")], cwd=PEER_DIR, env=self._env(), check=True)
        self.info["seed_s"] = round(time.monotonic() - started, 1)

    def start(self):
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        args = [os.path.join(PEER_VENV, "bin", "gunicorn"), "peer.wsgi", "--workers", str(PEER_WORKERS),
                "--bind", f"127.0.0.1:{port}", "--no-control-socket",
                "--access-logfile", os.path.join(self.dir, "access.log")]
        with open(os.path.join(self.dir, "gunicorn.log"), "a") as out:
            self.proc = subprocess.Popen(args, cwd=PEER_DIR, env=self._env(), stdout=out, stderr=out)
        wait_http(self.base + "/auth/me", 60, statuses=(401,))
        return None

    def stop(self):
        stop_process(self.proc, timeout=30)
        self.proc = None

    def settle(self):
        """Waits until the workers are idle. When wrk stops, the requests it had queued in the listen
        backlog are still answered one by one (each login a quarter second of hashing), which would
        load the machine during the next target's run. A reply to one probe says that the backlog
        is drained, not that the other workers have finished theirs: then their CPU must stop too."""
        wait_http(self.base + "/auth/me", 300, statuses=(401,), attempt=60)
        waited = wait_idle([self.proc.pid] + children(self.proc.pid))
        if waited > 0.5:
            log(f"[{self.key}] workers busy for {waited:.1f} s more after the backlog drained")

    def access_token(self):
        return post(self.base + "/auth/login", {"login": "user1", "password": PASSWORD})["access"]

    def refresh_tokens(self, run):
        return os.path.join(self.dir, f"tokens-{run}.txt")

    def memory(self):
        pids = [self.proc.pid] + children(self.proc.pid)
        pss = [pss_kib(p) for p in pids]
        return {"pss_mib": round(sum(p for p in pss if p) / 1024, 1), "processes": len(pids)}

    def access_log_stats(self):
        return {}


class PostgresCluster:
    """One throwaway cluster (scripts/pg-test-cluster.sh) for the whole bench, a database per
    target. Seeding runs with the test script's settings (no fsync); the measuring runs with
    PostgreSQL's durable defaults (fsync, full-page writes, synchronous commit), as a deployment's
    database would."""

    SCRIPT = os.path.join(ROOT, "scripts", "pg-test-cluster.sh")

    def __init__(self):
        out = subprocess.run([self.SCRIPT, "start"], check=True, capture_output=True, text=True).stdout.split()
        self.admin_url, self.dir = out[0], out[1]
        self.base_url = self.admin_url.rsplit("/", 1)[0]
        self.names = []

    def durable(self, on):
        if on:
            self.sql("ALTER SYSTEM SET fsync = on", "ALTER SYSTEM SET full_page_writes = on",
                     "ALTER SYSTEM SET synchronous_commit = on", "SELECT pg_reload_conf()", "CHECKPOINT")
        else:
            self.sql("ALTER SYSTEM RESET ALL", "SELECT pg_reload_conf()")

    def sql(self, *statements, url=None):
        for statement in statements:
            subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url or self.admin_url, "-c", statement],
                           check=True, capture_output=True, text=True)

    @staticmethod
    def name(key):
        return "bench_" + "".join(c if c.isalnum() else "_" for c in key)

    def database(self, key):
        name = self.name(key)
        self.sql(f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}")
        self.names.append(name)
        return f"{self.base_url}/{name}"

    def copy(self, source_key, key):
        name = self.name(key)
        self.sql("CHECKPOINT", f"DROP DATABASE IF EXISTS {name}",
                 f"CREATE DATABASE {name} TEMPLATE {self.name(source_key)}")

    def drop_all(self):
        for name in self.names:
            self.sql(f"DROP DATABASE IF EXISTS {name}")
        self.names = []

    def stop(self):
        subprocess.run([self.SCRIPT, "stop", self.dir], check=False, capture_output=True)
