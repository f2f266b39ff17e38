"""Database outage: PostgreSQL stopped and started again under load.

A throwaway cluster (`scripts/pg-test-cluster.sh`) backs the release server while a few threads
sign up, log in, refresh and call /auth/me on keep-alive connections. The cluster goes `down` for
a while and comes back `up` on the same port. The server process must never die; while the
database is down, replies are 503 problem+json and quick (p99 under a second), /readyz says 503,
no other 5xx appears and no connection fails; after `up`, requests succeed again within a few
seconds without a restart; every acknowledged sign-up logs in at the end. SKIP (not FAIL) only
when PostgreSQL cannot be installed or started. The cluster is always removed.
"""
import http.client
import random
import threading
import time

from common import Server, call, cluster, conn, exchange, on_cluster, percentile, signup_body

P99_503_LIMIT = 1.0     # seconds: "quick" 503s
RECOVERY_LIMIT = 10.0   # seconds after `up` until requests succeed again
THREADS = 4


class Recorder:
    """Every reply (operation, start, end, status, Content-Type) and every connection error."""

    def __init__(self):
        self.lock = threading.Lock()
        self.replies, self.errors, self.acked = [], [], []

    def reply(self, *row):
        with self.lock:
            self.replies.append(row)

    def error(self, *row):
        with self.lock:
            self.errors.append(row)

    def ack(self, name, end):
        with self.lock:
            self.acked.append((name, end))


def worker(port, tid, stop, rec):
    rnd = random.Random(tid)
    c = conn(port, timeout=10)
    names, access, refresh, n = [], None, None, 0
    while not stop.is_set():
        roll = rnd.random()
        if not names or roll < 0.25:
            op, name = "signup", f"out{tid}x{n}"
            n += 1
            args = ("POST", "/auth/signup", signup_body(name))
        elif access is None or roll < 0.45:
            op, name = "login", rnd.choice(names)
            args = ("POST", "/auth/login", {"username": name, "password": signup_body(name)["password"]})
        elif roll < 0.7:
            op, args = "refresh", ("POST", "/auth/refresh", {"refresh": refresh})
        else:
            op, args = "me", ("GET", "/auth/me", None, access)
        t0 = time.monotonic()
        try:
            status, ctype, reply = exchange(c, *args)
        except (OSError, http.client.HTTPException) as e:
            rec.error(op, t0, time.monotonic(), repr(e))
            c.close()
            c = conn(port, timeout=10)
            continue
        t1 = time.monotonic()
        rec.reply(op, t0, t1, status, ctype)
        if op == "signup" and status == 202:
            names.append(name)
            rec.ack(name, t1)
        elif op in ("login", "refresh") and status == 200:
            access, refresh = reply["access"], reply["refresh"]
        elif op == "refresh" and status != 503:
            access = None
    c.close()


def readyz_poller(port, stop, polls):
    while not stop.is_set():
        t0 = time.monotonic()
        c = conn(port, timeout=10)
        try:
            status, _ = call(c, "GET", "/readyz")
        except (OSError, http.client.HTTPException):
            status = None
        finally:
            c.close()
        polls.append((t0, time.monotonic(), status))
        time.sleep(0.1)


def all_log_in(port, names):
    """The acknowledged sign-ups that cannot log in."""
    missing, lock = [], threading.Lock()

    def check(part):
        c = conn(port, timeout=30)
        for name in part:
            status, _ = call(c, "POST", "/auth/login", {"username": name, "password": signup_body(name)["password"]})
            if status != 200:
                with lock:
                    missing.append((name, status))
        c.close()

    threads = [threading.Thread(target=check, args=(names[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return missing


def run(tmp, quick):
    before, outage, after = (3, 4, 3) if quick else (10, 10, 10)
    return on_cluster(lambda url, directory: exercise(tmp, url, directory, before, outage, after))


def exercise(tmp, url, directory, before, outage, after):
    server = Server(tmp, url)
    rec, polls, stop = Recorder(), [], threading.Event()
    threads = [threading.Thread(target=worker, args=(server.port, t, stop, rec), daemon=True) for t in range(THREADS)]
    threads.append(threading.Thread(target=readyz_poller, args=(server.port, stop, polls), daemon=True))
    deaths = []

    def wait(seconds, until=None):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until()):
            if not server.alive() and not deaths:
                deaths.append(time.monotonic())
            time.sleep(0.05)

    for t in threads:
        t.start()
    wait(before)
    t_down0 = time.monotonic()
    down_rc, down_out = cluster("down", directory)
    t_down1 = time.monotonic()
    wait(outage)
    t_up0 = time.monotonic()
    up_rc, up_out = cluster("up", directory)
    t_up1 = time.monotonic()

    def first_success():
        with rec.lock:
            ok = [r[2] for r in rec.replies if r[1] >= t_up1 and r[0] != "me" and r[3] in (200, 202)]
        return min(ok) if ok else None

    def first_ready():
        ready = [p[1] for p in list(polls) if p[0] >= t_up1 and p[2] == 200]
        return min(ready) if ready else None

    wait(RECOVERY_LIMIT * 3, until=lambda: first_success() is not None and first_ready() is not None)
    wait(after)
    stop.set()
    for t in threads:
        t.join(30)
    alive = server.alive() and not deaths

    replies, errors = rec.replies, rec.errors
    down_window = [r for r in replies if r[1] >= t_down1 and r[2] <= t_up0]
    fives = [r for r in replies if r[3] >= 500]
    other_5xx = sorted({r[3] for r in fives if r[3] != 503})
    lat503 = [r[2] - r[1] for r in fives if r[3] == 503]
    not_problem = sum(1 for r in fives if r[3] == 503 and not r[4].startswith("application/problem+json"))
    down_db = [r for r in down_window if r[0] != "me"]
    down_db_not503 = sum(1 for r in down_db if r[3] != 503)
    down_polls = [p for p in polls if p[0] >= t_down1 and p[1] <= t_up0]
    polls_not503 = sum(1 for p in down_polls if p[2] != 503)
    success, ready = first_success(), first_ready()
    recovery = success - t_up1 if success is not None else None
    ready_after = ready - t_up1 if ready is not None else None
    acked = [name for name, _ in rec.acked]
    acked_before = sum(1 for _, end in rec.acked if end < t_down0)
    missing = all_log_in(server.port, acked) if server.alive() else acked
    server.stop()
    for name, status in missing[:5]:
        print(f"  outage: acknowledged sign-up {name} cannot log in ({status})")
    for op, _, _, e in errors[:5]:
        print(f"  outage: connection error on {op}: {e}")

    ok = (alive and down_rc == 0 and up_rc == 0 and not other_5xx and not errors and lat503
          and percentile(lat503, 99) < P99_503_LIMIT and not_problem == 0 and down_db and down_db_not503 == 0
          and down_polls and polls_not503 == 0 and recovery is not None and recovery <= RECOVERY_LIMIT
          and ready_after is not None and ready_after <= RECOVERY_LIMIT and acked_before > 0 and not missing)
    fmt = lambda v: "never" if v is None else f"{v:.2f} s"
    figures = (f"{len(replies)} replies from {THREADS} threads; PostgreSQL down {t_up0 - t_down1:.1f} s "
               f"(stop took {t_down1 - t_down0:.1f} s{'' if down_rc == 0 else ', FAILED: ' + down_out[-200:]}, "
               f"start {t_up1 - t_up0:.1f} s{'' if up_rc == 0 else ', FAILED: ' + up_out[-200:]}); "
               f"{len(lat503)} 503s, p50 {percentile(lat503, 50) * 1000:.1f} ms, p99 {percentile(lat503, 99) * 1000:.1f} ms, "
               f"max {max(lat503, default=float('nan')) * 1000:.1f} ms, {not_problem} not problem+json; "
               f"while down {len(down_db)} database calls, {down_db_not503} not 503, "
               f"/readyz {len(down_polls)} polls, {polls_not503} not 503; other 5xx {other_5xx or 'none'}; "
               f"{len(errors)} connection errors; after up: first success {fmt(recovery)}, /readyz 200 {fmt(ready_after)}; "
               f"{len(acked)} acknowledged sign-ups ({acked_before} before the outage), {len(missing)} cannot log in; "
               f"server alive throughout: {alive}")
    return ok, figures
