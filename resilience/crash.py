"""Crash: `kill -9` in the middle of a sign-up and refresh load, restart on the same database.

Every acknowledged sign-up (202) must log in after the restart, the latest acknowledged refresh
token of every session must still refresh, and SQLite's integrity check must say ok. A refresh
whose reply was lost at the kill may have committed, so its predecessor may already be used: a 401
`refresh_token_reused` is accepted only for a session that had a refresh in flight at kill time.
"""
import os
import subprocess
import threading
import time

from common import Server, call, conn, log, once, signup_body


class Session:
    def __init__(self, token):
        self.token = token        # latest acknowledged refresh token
        self.in_flight = False    # a refresh of `token` was sent and not answered
        self.rotations = 0


def worker(port, tid, stop, signups, sessions, counts):
    i = 0
    c = conn(port, timeout=5)
    while not stop.is_set():
        name = f"cr{tid}x{i}"
        i += 1
        try:
            status, _ = call(c, "POST", "/auth/signup", signup_body(name))
        except Exception:
            break
        if status != 202:
            counts["other"] += 1
            continue
        signups.append(name)
        try:
            status, reply = call(c, "POST", "/auth/login", {"username": name, "password": signup_body(name)["password"]})
        except Exception:
            break
        if status != 200:
            counts["other"] += 1
            continue
        s = Session(reply["refresh"])
        sessions.append(s)
        for _ in range(20):
            if stop.is_set():
                return
            s.in_flight = True
            try:
                status, reply = call(c, "POST", "/auth/refresh", {"refresh": s.token})
            except Exception:
                return  # the kill: leave in_flight set
            if status == 200:
                s.token, s.in_flight = reply["refresh"], False
                s.rotations += 1
            else:
                s.in_flight = False
                counts["other"] += 1
                break


def run(tmp, quick):
    db = os.path.join(tmp, "crash.sqlite")
    server = Server(tmp, db)
    stop = threading.Event()
    signups, sessions = [], []
    counts = {"other": 0}
    threads = [threading.Thread(target=worker, args=(server.port, t, stop, signups, sessions, counts), daemon=True)
               for t in range(8)]
    for t in threads:
        t.start()
    load_s = 5 if quick else 15
    time.sleep(load_s)
    server.kill9()  # mid-load: threads are still sending
    stop.set()
    for t in threads:
        t.join(15)
    rotations = sum(s.rotations for s in sessions)
    in_flight = sum(1 for s in sessions if s.in_flight)
    log(f"crash: killed after {load_s}s with {len(signups)} acknowledged sign-ups, {len(sessions)} sessions, "
        f"{rotations} acknowledged rotations, {in_flight} refreshes in flight")

    t0 = time.time()
    server = Server(tmp, db)
    restart_ms = (time.time() - t0) * 1000
    missing_login, bad_refresh, lost_reply = [], [], 0
    c = conn(server.port)
    for name in signups:
        status, _ = call(c, "POST", "/auth/login", {"username": name, "password": signup_body(name)["password"]})
        if status != 200:
            missing_login.append((name, status))
    for s in sessions:
        status, reply = call(c, "POST", "/auth/refresh", {"refresh": s.token})
        if status == 200:
            continue
        code = (reply or {}).get("code")
        if status == 401 and code == "refresh_token_reused" and s.in_flight:
            lost_reply += 1
        else:
            bad_refresh.append((status, code, s.in_flight))
    c.close()
    server.stop()
    integrity = subprocess.run(["sqlite3", db, "PRAGMA integrity_check"], capture_output=True, text=True)
    integrity_out = (integrity.stdout + integrity.stderr).strip()

    ok = (not missing_login and not bad_refresh and integrity_out == "ok" and len(signups) > 0 and len(sessions) > 0)
    figures = (f"{len(signups)} acked sign-ups ({len(missing_login)} missing), {len(sessions)} sessions / "
               f"{rotations} acked rotations ({len(bad_refresh)} refused, {lost_reply} lost-reply reuse), "
               f"restart {restart_ms:.0f} ms, integrity_check: {integrity_out}")
    if missing_login:
        log("crash: missing sign-ups (first 5):", missing_login[:5])
    if bad_refresh:
        log("crash: refused refresh tokens (status, code, in_flight) first 5:", bad_refresh[:5])
    return ok, figures
