"""Schemathesis (from PyPI, in a venv under .build/) against the served /openapi.json: a fixed
number of examples per operation, checks `not_a_server_error` and `response_schema_conformance`.
Every authenticated case runs with a fresh account's token (`schemahooks.py`); the check fails
if an authenticated operation only ever got 401/403 or never a 2xx. A tool that cannot be
installed or run is a SKIP with the reason, not a FAIL of the server.
"""
import json
import os
import re
import subprocess
import sys

from common import HERE, ROOT, SERVER, Server, log

VENV = os.path.join(ROOT, ".build", "resilience-venv")
HOOKS = os.path.join(HERE, "schemahooks.py")
SEED = 20261130


def install():
    st = os.path.join(VENV, "bin", "st")
    if os.path.exists(st):
        return st, None
    try:
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True, capture_output=True, timeout=120)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "schemathesis>=4,<5"], check=True,
                       capture_output=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as e:
        return None, f"could not install schemathesis: {e}"
    return (st, None) if os.path.exists(st) else (None, "schemathesis installed no `st` command")


def coverage(log_path):
    """Statuses seen per operation, and which operations are authenticated."""
    seen, authenticated = {}, set()
    try:
        with open(log_path) as f:
            for line in f:
                row = json.loads(line)
                op = f"{row['method']} {row['path']}"
                seen.setdefault(op, set()).add(row["status"])
                if row["authenticated"]:
                    authenticated.add(op)
    except FileNotFoundError:
        pass
    return seen, authenticated


def run(tmp, quick):
    examples = 10 if quick else 100
    st, why = install()
    if st is None:
        return "SKIP", why
    version = subprocess.run([st, "--version"], capture_output=True, text=True).stdout.strip()
    if not re.search(r"version 4\.", version):
        return "SKIP", f"expected schemathesis 4.x CLI, found {version!r}"
    # No resend cooldown: an operator's resend of a verification reaches its 202 for an account
    # whose sign-up mailed its code a moment before (the cooldown itself is tested end to end).
    server = Server(tmp, os.path.join(tmp, "schema.sqlite"), extra=["--mail-interval", "0", "--mail-per-hour", "0"])
    base = f"http://127.0.0.1:{server.port}"
    log_path = os.path.join(tmp, "calls.jsonl")
    cmd = [st, "run", base + "/openapi.json", "--url", base,
           "--checks", "not_a_server_error,response_schema_conformance",
           "--phases", "examples,fuzzing", "--max-examples", str(examples), "--seed", str(SEED),
           "--workers", "2", "--request-timeout", "10", "--no-color"]
    log("schemathesis:", " ".join(cmd), "with hooks", HOOKS)
    # Every authenticated case gets its own fresh account from the hooks module (see schemahooks.py).
    env = {**os.environ, "SCHEMATHESIS_HOOKS": HOOKS, "PYTHONDONTWRITEBYTECODE": "1",
           "RESILIENCE_ST_BASE": base, "RESILIENCE_ST_LOG": log_path,
           # The admin operations need an operator, made with `account-server admin grant` on this database.
           "RESILIENCE_ST_SERVER": SERVER, "RESILIENCE_ST_DATABASE_URL": "sqlite:" + server.db}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300 if quick else 1800, cwd=tmp, env=env)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    alive = server.alive()
    server.stop()
    with open(os.path.join(tmp, "schemathesis.log"), "w") as f:
        f.write(out)
    summary = [l.strip() for l in out.splitlines()
               if re.search(r"(passed|failed|errors?|operations|test cases|generated)", l, re.I) and len(l) < 200]
    tail = "; ".join(dict.fromkeys(l.lstrip("⚠️ ").rstrip(":") for l in summary
                                   if re.search(r"\d+ generated", l) or ("operations" in l and len(l) < 60 and "⚠" in l)))
    if rc != 0:
        print(out[-6000:])
    else:  # the tool's own warnings (e.g. operations that rejected most generated bodies), for the record
        for title, items in re.findall(r"^(\S.*(?:mismatch|missing).*)\n\n((?:  - .*\n)+)", out, re.M | re.I):
            print(f"  schemathesis: {title.split(':')[0]}:", ", ".join(l.strip()[2:] for l in items.splitlines()))
    seen, authenticated = coverage(log_path)
    only_denied = sorted(op for op in authenticated if seen[op] <= {401, 403})
    # Linking Apple needs an identity token signed by Apple's key for this server's client id:
    # the run's server has no Apple configuration (404 apple_not_configured), so these two cannot
    # succeed here; their success paths are the end-to-end tests' (AppleSignInTests, against the
    # Apple stand-in) and their token checks the `apple` check's.
    outside_provider = {"POST /auth/apple/link", "DELETE /auth/apple/link"}
    no_success = sorted(op for op in authenticated
                        if op not in outside_provider and not any(200 <= s < 300 for s in seen[op]))
    for op in sorted(authenticated):
        print(f"  schemathesis: {op}: statuses {sorted(seen[op])}")
    ok = rc == 0 and alive and bool(authenticated) and not only_denied and not no_success
    calls = sum(1 for _ in open(log_path)) if os.path.exists(log_path) else 0
    return ok, (f"{version}, {examples} examples/operation, exit {rc}, server alive {alive}: {tail}; "
                f"{calls} calls; {len(authenticated)} authenticated operations, "
                f"only 401/403: {', '.join(only_denied) or 'none'}; never 2xx: {', '.join(no_success) or 'none'}")
