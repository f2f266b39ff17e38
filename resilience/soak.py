"""Soak: mixed load (sign-up, login, refresh, me) from many keep-alive connections for a while.

No 5xx may come back; connection errors are counted; resident memory is sampled and the mean of
the last third may not exceed the mean of the first third by more than 30%.
"""
import os
import random
import statistics
import threading
import time

from common import Server, call, conn, log, signup_body

RSS_GROWTH_LIMIT = 0.30


def worker(port, tid, deadline, stats, lock):
    rnd = random.Random(tid)
    c = conn(port, timeout=15)
    local = {"ok": 0, "4xx": 0, "5xx": 0, "conn_errors": 0}
    names, access, refresh, n = [], None, None, 0

    def req(method, path, body=None, token=None):
        nonlocal c
        try:
            status, reply = call(c, method, path, body, token)
        except Exception:
            local["conn_errors"] += 1
            c.close()
            c = conn(port, timeout=15)
            return None, None
        key = "5xx" if status >= 500 else "4xx" if status >= 400 else "ok"
        local[key] += 1
        return status, reply

    while time.time() < deadline:
        roll = rnd.random()
        if not names or roll < 0.1:
            name = f"sk{tid}x{n}"
            n += 1
            status, _ = req("POST", "/auth/signup", signup_body(name))
            if status == 202:
                names.append(name)
        elif access is None or roll < 0.3:
            name = rnd.choice(names)
            status, reply = req("POST", "/auth/login", {"username": name, "password": signup_body(name)["password"]})
            if status == 200:
                access, refresh = reply["access"], reply["refresh"]
        elif roll < 0.6:
            status, reply = req("POST", "/auth/refresh", {"refresh": refresh})
            if status == 200:
                access, refresh = reply["access"], reply["refresh"]
            else:
                access = None
        else:
            req("GET", "/auth/me", token=access)
    c.close()
    with lock:
        for k, v in local.items():
            stats[k] += v


def run(tmp, quick):
    duration = 20 if quick else 180
    connections = 32 if quick else 256
    interval = 2 if quick else 5
    warmup = 5 if quick else 20
    server = Server(tmp, os.path.join(tmp, "soak.sqlite"))
    stats = {"ok": 0, "4xx": 0, "5xx": 0, "conn_errors": 0}
    lock = threading.Lock()
    deadline = time.time() + duration
    threads = [threading.Thread(target=worker, args=(server.port, t, deadline, stats, lock), daemon=True)
               for t in range(connections)]
    t0 = time.time()
    for t in threads:
        t.start()
    rss = []
    # RSS climbs while threads connect and caches fill; the flat-memory test starts after that.
    time.sleep(warmup)
    while time.time() < deadline:
        r = server.rss_kib()
        if r is not None:
            rss.append(r)
        time.sleep(interval)
    for t in threads:
        t.join(60)
    elapsed = time.time() - t0
    alive = server.alive()
    server.stop()
    third = max(1, len(rss) // 3)
    first, last = statistics.mean(rss[:third]), statistics.mean(rss[-third:])
    growth = (last - first) / first
    total = stats["ok"] + stats["4xx"] + stats["5xx"]
    ok = alive and stats["5xx"] == 0 and growth <= RSS_GROWTH_LIMIT and total > 0
    figures = (f"{duration} s ({warmup} s warm-up before RSS sampling), {connections} connections: {total} requests ({total / elapsed:.0f}/s), "
               f"{stats['5xx']} 5xx, {stats['4xx']} 4xx, {stats['conn_errors']} connection errors; "
               f"RSS first {rss[0] / 1024:.1f} / last {rss[-1] / 1024:.1f} / max {max(rss) / 1024:.1f} MiB, "
               f"last-third mean {growth * 100:+.1f}% vs first third")
    return ok, figures
