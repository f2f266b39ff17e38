#!/usr/bin/env python3
"""`make resilience`: try to break the release server and say, with figures, whether it held.

Checks (each prints PASS, FAIL or SKIP with its figures; any FAIL makes the exit status 1):
crash (kill -9 mid-load, restart, nothing acknowledged is lost), slow and idle clients, soak,
a PostgreSQL outage under load, schemathesis against /openapi.json, a byte-level raw HTTP fuzzer,
races of the same request at once on two servers over one PostgreSQL, mangled access tokens with a
refresh grace replayed from another client, the enumeration and guessing attacks (enum-reset,
enum-signup, guessing), a connection flood from one address with another timed, pre-hijacking
by a newer sign-up of the victim's address (prehijack), and takeover with one stolen access token
(takeover). `--quick` is the short form.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # keep the worktree clean of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import build, log, raise_fd_limit  # noqa: E402

CHECKS = {"crash": "crash", "slow": "slow", "soak": "soak", "outage": "outage", "schemathesis": "schemafuzz",
          "rawfuzz": "rawfuzz", "race": "race", "tokens": "tokens"}
# Attacks of issue 11: enumeration by reset confirmation (replies and time) and by sign-up, and
# password guessing behind a token.
CHECKS.update({"enum-reset": "enum_reset", "enum-signup": "enum_signup", "guessing": "guessing"})
# ...and a connection flood from one address (issue 11's HTTP section).
CHECKS.update({"flood": "flood"})
# Pre-hijacking by a newer sign-up of the victim's address (the signup_token of issue 19's verify sign-in).
CHECKS.update({"prehijack": "prehijack"})
# passkey responses (attestation objects, authenticator data, client data) mutated over HTTP.
CHECKS.update({"webauthn": "webauthnfuzz"})
# Apple identity tokens mutated, and unknown kids that must not make the server hammer Apple (issue 16).
CHECKS.update({"apple": "applefuzz"})
# Account takeover with one stolen access token: every change of a sign-in method, factor, password,
# address or the account itself needs a proof the thief lacks (takeover).
CHECKS.update({"takeover": "takeover"})
# soak's and guessing's connections all come from 127.0.0.1 (256 and 200 at once in the full form,
# over the per-address cap of 64), each standing for a client of its own or testing something else;
# the cap itself is tried by the flood check.
ENVIRONMENT = {name: {"ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS": "0"} for name in ("soak", "guessing")}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="the ~1 minute short form")
    p.add_argument("--no-build", action="store_true", help="use the release binary as it is")
    p.add_argument("--only", action="append", choices=list(CHECKS), help="run only this check (repeatable)")
    args = p.parse_args()
    if not args.no_build:
        build()
    raise_fd_limit()
    results = []
    started = time.time()
    for name in args.only or CHECKS:
        tmp = tempfile.mkdtemp(prefix=f"resilience-{name}-")
        t0 = time.time()
        os.environ.pop("ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS", None)  # the default, but where a check needs otherwise
        os.environ.update(ENVIRONMENT.get(name, {}))
        try:
            mod = __import__(CHECKS[name])
            verdict, figures = mod.run(tmp, args.quick)
            if verdict is True:
                verdict = "PASS"
            elif verdict is False:
                verdict = "FAIL"
        except Exception as e:
            traceback.print_exc()
            verdict, figures = "FAIL", f"error: {e!r}"
        secs = time.time() - t0
        print(f"{verdict} {name}: {figures} ({secs:.0f} s)", flush=True)
        results.append((name, verdict, figures, secs))
        if verdict == "PASS":
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            log(f"{name}: kept {tmp} for inspection")

    print()
    print(f"## Resilience summary ({'QUICK' if args.quick else 'full'}, {time.time() - started:.0f} s)")
    print()
    print("| check | result | figures | time |")
    print("|---|---|---|---|")
    for name, verdict, figures, secs in results:
        print(f"| {name} | {verdict} | {figures} | {secs:.0f} s |")
    sys.exit(1 if any(v == "FAIL" for _, v, _, _ in results) else 0)


if __name__ == "__main__":
    main()
