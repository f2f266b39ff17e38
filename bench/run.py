#!/usr/bin/env python3
"""`make bench`: the account server measured with the flags a deployment runs, beside its
references and beside the backend people would otherwise run.

For each scale (accounts already in the database) it seeds a database per target and measures,
in one sitting with runs alternating between targets:

- `default`:  the release server with the defaults a deployment runs (access log on, stdout and
              stderr appended to a file) on SQLite; only the per-address and per-account limits
              are off, so wrk's single address is not throttled;
- `logoff`:   the same with `--access-log off` (/auth/me, refresh, login);
- `postgres`: the same defaults on a throwaway PostgreSQL cluster (start-up, /auth/me, refresh, login,
              the operators' account search);
- `peer`:     the original app's backend, Django REST framework + SimpleJWT under gunicorn on
              SQLite, built from PyPI in a virtual environment (bench/django_peer/);

next to nginx serving a fixed JSON body (the ceiling) and libsodium's raw Argon2id rate at the
server's parameters. Writes results/latest.json and results/latest.svg and prints a Markdown
table per scale.

`--compare OLD_BINARY` measures two builds instead: each server target for the old binary and for
this one (or `--server`), alternating runs, each binary on databases it migrated itself and
bench/seed.py seeded for it (a newer binary may refuse an older one's schema, so neither ever opens
the other's). It prints old / new / change and
writes .build/bench-compare/compare.json; with `--max-regression N` it exits 1 when a figure is
worse by more than N%.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the bench's sources

import report  # noqa: E402
from figures import Sitting  # noqa: E402
from targets import AccountServer, DjangoPeer, PostgresCluster, Scale  # noqa: E402
from tools import PASSWORD, ROOT, Argon2, Ceiling, Wrk, log  # noqa: E402

SERVER = os.path.join(ROOT, ".build", "release", "account-server")
ALL_TARGETS = ("default", "logoff", "postgres", "peer")
# Asked for by name only (`--targets postgres,pg-notified,pg-nomodel`): PostgreSQL's /auth/me with
# the read model answering at once while notifications are caught up, and with no read model.
EXTRA_TARGETS = ("pg-notified", "pg-nomodel")
LABELS = {"default": "defaults (SQLite, access log to a file)", "logoff": "access log off",
          "postgres": "PostgreSQL (defaults)", "pg-notified": "PostgreSQL, --read-model-freshness notified",
          "pg-nomodel": "PostgreSQL, --read-model off"}
FIGURES = {"default": ("startup", "me", "refresh", "login", "signup", "me_under_login", "admin_search"),
           "logoff": ("me", "refresh", "login"),
           "postgres": ("startup", "me", "refresh", "login", "admin_search"),
           "pg-notified": ("me",), "pg-nomodel": ("me",)}
EXTRA_ARGS = {"pg-notified": ["--read-model-freshness", "notified"], "pg-nomodel": ["--read-model", "off"]}


def server_targets(keys, binary, suffix=""):
    """The account-server targets among `keys` for one binary (`logoff` starts from a copy of
    `default`'s seeded database when both run, the `pg-` variants from `postgres`')."""
    made = {}
    for key in keys:
        if key == "peer":
            continue
        source = None
        if key == "logoff" and "default" in made:
            source = made["default"]
        if source is None and key.startswith("pg-") and "postgres" in made:
            source = made["postgres"]
        label = LABELS[key] + (f" ({suffix})" if suffix else "")
        made[key] = AccountServer(key + (f"@{suffix}" if suffix else ""), label, binary,
                                  store="postgres" if key == "postgres" or key.startswith("pg-") else "sqlite",
                                  access_log=key != "logoff", copy_of=source, figures=FIGURES[key],
                                  extra_args=EXTRA_ARGS.get(key, []))
    return made


def make_targets(args, binary):
    keys = [k.strip() for k in args.targets.split(",") if k.strip()]
    unknown = set(keys) - set(ALL_TARGETS) - set(EXTRA_TARGETS)
    if unknown:
        sys.exit(f"unknown target(s) {', '.join(sorted(unknown))}; choose from {', '.join(ALL_TARGETS + EXTRA_TARGETS)}")
    if args.compare:
        old = server_targets(keys, os.path.abspath(args.compare), "old")
        new = server_targets(keys, binary, "new")
        return [t for key in old for t in (old[key], new[key])]  # each source before its copies
    targets = list(server_targets(keys, binary).values())
    if "peer" in keys:
        targets.append(DjangoPeer())
    return targets


def bench_scale(accounts, targets, args, tools, pg):
    tmp = tempfile.mkdtemp(prefix=f"bench-{accounts}-")
    scale = Scale(accounts, tmp, tools["phc"], args.runs, args.refresh_sessions, pg)
    try:
        if pg is not None:
            pg.durable(False)
        for t in targets:
            log(f"[{accounts:,}] preparing {t.key} ...")
            t.provision(scale)
        if pg is not None:
            pg.durable(True)
        sitting = Sitting(targets, tools["wrk"], tools["ceiling"], tools["argon2"], args, accounts)
        sitting.startup()
        for t in targets:
            t.start()
        sitting.me()
        sitting.refresh()
        sitting.login()
        sitting.signup()
        sitting.me_under_login()
        sitting.admin_search()
        sitting.finish()
        return {"accounts": accounts, "targets": sitting.results, "references": sitting.references}
    finally:
        for t in targets:
            t.stop()
        if pg is not None:
            pg.drop_all()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", default="1000,1000000", help="comma-separated scales (default 1000,1000000)")
    parser.add_argument("--runs", type=int, help="runs per figure and target, medians shown (default 3; with "
                        "--compare 4, so old and new go first equally often)")
    parser.add_argument("--duration", type=int, default=5, help="seconds per wrk run")
    parser.add_argument("--targets", default=",".join(ALL_TARGETS),
                        help="which of default,logoff,postgres,peer to run (default: all; --compare skips peer); "
                        "pg-notified and pg-nomodel only when named")
    parser.add_argument("--compare", metavar="OLD_BINARY", help="measure this older account-server beside the new one")
    parser.add_argument("--max-regression", type=float, metavar="PCT",
                        help="with --compare: exit 1 when a figure of the new build is worse by more than PCT%%")
    parser.add_argument("--server", help="the (new) account-server binary; default: build .build/release/account-server")
    parser.add_argument("--hash-threads", type=int, default=os.cpu_count(),
                        help="threads of the raw Argon2id run (the server's default: cores)")
    # Enough sessions that each is rotated about once a run at the goal rate, so at a million
    # accounts the rotations touch cold pages as real clients spread over the table would.
    parser.add_argument("--refresh-sessions", type=int, default=60000,
                        help="sessions per refresh run, each rotated in turn (default 60000)")
    parser.add_argument("--figures", help="measure only these figures (comma-separated: startup, me, refresh, login, "
                        "signup, me_under_login, admin_search); default all")
    parser.add_argument("--no-build", action="store_true", help="use the release binary already built")
    parser.add_argument("--out", help="where results go (default bench/results, or .build/bench-compare with --compare)")
    parser.add_argument("--report-from", metavar="JSON", help="measure nothing: print the tables of a results file "
                        "(latest.json or compare.json) again, and redraw latest.svg beside a latest.json")
    args = parser.parse_args()
    if args.report_from:
        return print_report(args.report_from, args.max_regression)
    if args.figures:
        args.figures = {f.strip() for f in args.figures.split(",") if f.strip()}
    if args.runs is None:
        args.runs = 4 if args.compare else 3
    if args.compare:
        if not os.access(args.compare, os.X_OK):
            sys.exit(f"--compare: {args.compare} is not an executable account-server")
        args.targets = ",".join(k for k in args.targets.split(",") if k.strip() != "peer")
    out_dir = args.out or (os.path.join(ROOT, ".build", "bench-compare") if args.compare
                           else os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))

    binary = os.path.abspath(args.server) if args.server else SERVER
    if not args.server and not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "account-server"], cwd=ROOT, check=True)
    targets = make_targets(args, binary)
    if not targets:
        sys.exit("no targets to measure")
    if any(t.kind == "peer" for t in targets):
        DjangoPeer.install()

    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="bench-tools-")
    tools, pg, results = {}, None, []
    try:
        tools["wrk"] = Wrk(tmp, args.duration)
        tools["argon2"] = Argon2(tmp, args.hash_threads)
        tools["phc"] = tools["argon2"].phc(PASSWORD)
        tools["ceiling"] = Ceiling(tmp)
        if any(getattr(t, "store", None) == "postgres" for t in targets):
            pg = PostgresCluster()
        for n in args.accounts.split(","):
            results.append(bench_scale(int(n), targets, args, tools, pg))
    finally:
        if "ceiling" in tools:
            tools["ceiling"].stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    minutes = (time.monotonic() - started) / 60

    result = {
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cores": os.cpu_count(), "kernel": os.uname().release},
        "machine_note": f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}",
        "settings": {"runs": args.runs, "duration_s": args.duration, "hash_threads": args.hash_threads,
                     "wrk": "-t2 -c64 (login, sign-up: -c16; /auth/me under logins: -t1 -c4)",
                     "refresh_sessions_per_run": args.refresh_sessions, "minutes": round(minutes, 1),
                     "binaries": {t.key: t.binary for t in targets if t.kind == "server"}},
        "results": results,
    }
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "compare.json" if args.compare else "latest.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
    log(f"bench: {minutes:.1f} minutes; results in {path}")
    print_report(path, args.max_regression)


def print_report(path, max_regression):
    """The tables of a results file; beside a latest.json also its chart. Exits 1 when a compared
    figure is worse than `max_regression` allows."""
    with open(path) as f:
        result = json.load(f)
    results = result["results"]
    if any(k.endswith("@old") for k in results[0]["targets"]):
        worse = []
        for scale in results:
            text, bad = report.compare_table(scale, max_regression)
            print(text + "\n")
            worse += bad
        if worse:
            print("Worse by more than the allowed regression:\n" + "\n".join("- " + w for w in worse))
            sys.exit(1)
        return
    with open(os.path.join(os.path.dirname(path), "latest.svg"), "w") as f:
        f.write(report.svg(result))
    for scale in results:
        print(report.table(scale) + "\n")
    print(report.scale_rule(results))


if __name__ == "__main__":
    main()
