"""Schemathesis (from PyPI, in a venv under .build/) against the served /openapi.json: a fixed
number of examples per operation, checks `not_a_server_error` and `response_schema_conformance`.
A tool that cannot be installed or run is a SKIP with the reason, not a FAIL of the server.
"""
import os
import re
import subprocess
import sys

from common import ROOT, Server, log, once, signup_body

VENV = os.path.join(ROOT, ".build", "resilience-venv")
SEED = 20261130


def install():
    st = os.path.join(VENV, "bin", "st")
    if os.path.exists(st):
        return st, None
    try:
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True, capture_output=True, timeout=120)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "schemathesis"], check=True,
                       capture_output=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as e:
        return None, f"could not install schemathesis: {e}"
    return (st, None) if os.path.exists(st) else (None, "schemathesis installed no `st` command")


def run(tmp, quick):
    examples = 10 if quick else 100
    st, why = install()
    if st is None:
        return "SKIP", why
    version = subprocess.run([st, "--version"], capture_output=True, text=True).stdout.strip()
    if not re.search(r"version 4\.", version):
        return "SKIP", f"expected schemathesis 4.x CLI, found {version!r}"
    server = Server(tmp, os.path.join(tmp, "schema.sqlite"))
    base = f"http://127.0.0.1:{server.port}"
    # A real bearer token, so the authenticated operations get past 401 (logout may still revoke it).
    once(server.port, "POST", "/auth/signup", signup_body("schemauser"))
    _, reply = once(server.port, "POST", "/auth/login", {"username": "schemauser", "password": signup_body("schemauser")["password"]})
    auth = ["--header", "Authorization: Bearer " + reply["access"]] if reply and "access" in reply else []
    cmd = [st, "run", base + "/openapi.json", "--url", base,
           "--checks", "not_a_server_error,response_schema_conformance",
           "--phases", "examples,fuzzing", "--max-examples", str(examples), "--seed", str(SEED),
           "--workers", "2", "--request-timeout", "10", "--no-color", *auth]
    log("schemathesis:", " ".join(cmd[:-1] + ["Authorization: Bearer …"] if auth else cmd))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300 if quick else 1800, cwd=tmp,
                           env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
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
                                   if "generated" in l or ("operations" in l and len(l) < 80)))
    if rc != 0:
        print(out[-6000:])
    else:  # which operations only ever saw 401/403, for the record
        m = re.search(r"401 Unauthorized \(\d+ operations\):\n((?:\s+\S.*\n)+)", out)
        if m:
            print("  schemathesis: only 401/403 from:", " ".join(l.strip() for l in m.group(1).splitlines()))
    ok = rc == 0 and alive
    return ok, f"{version}, {examples} examples/operation, exit {rc}, server alive {alive}: {tail}"
