"""Passkey responses fuzzed against the release server: attestation objects, authenticator data,
client data and signatures of otherwise valid registrations and logins, mutated byte by byte
(bit flips, cuts, insertions, CBOR heads claiming huge lengths) and sent over HTTP. The server
must never answer 5xx, stay up, and never sign anyone in: no one here holds a private key, so every
login must be refused (a registration may pass when a mutation only changed the random key or id).
"""
import os
import random

import passkey
from common import PASSWORD, Server, mutate, once, signup_body

SEED = 20261116
HEADS = [bytes([0x5B]) + b"\xff" * 8, bytes([0x9B]) + b"\xff" * 8, bytes([0xBB]) + b"\xff" * 8, b"\x9f", b"\xbf", b"\xc0", b"\xf9\x3c\x00"]


def run(tmp, quick):
    rounds = 300 if quick else 3000
    server = Server(tmp, os.path.join(tmp, "webauthn.sqlite"))
    port = server.port
    rnd = random.Random(SEED)
    once(port, "POST", "/auth/signup", signup_body("webauthnfuzz"))
    status, pair = once(port, "POST", "/auth/login", {"username": "webauthnfuzz", "password": PASSWORD})
    if status != 200:
        server.stop()
        return False, f"login: {status}"
    token = pair["access"]
    # One registered credential (a random public key: nobody can sign for it) for the logins.
    _, options = once(port, "POST", "/auth/passkeys/register/options", token=token)
    credential_id, client, attestation = passkey.registration_parts(options)
    status, _ = once(port, "POST", "/auth/passkeys/register",
                     {"name": "fuzz", "password": PASSWORD, "credential": passkey.registration(credential_id, client, attestation)}, token)
    if status != 201:
        server.stop()
        return False, f"the unmutated registration got {status}"

    def passkeyless_account(n):
        """A new account holding no passkey, so its password is the step-up proof of a registration."""
        once(port, "POST", "/auth/signup", signup_body(f"webauthnfuzz{n}"))
        return once(port, "POST", "/auth/login", {"username": f"webauthnfuzz{n}", "password": PASSWORD})[1]["access"]

    seen, bad = {}, []
    # Registrations go to an account without a passkey (an account holding one proves with it,
    # and nobody holds the random keys these register), a new one whenever a mutation registered.
    registering = passkeyless_account("r")
    for n in range(rounds):
        # A registration with one part mutated.
        status, options = once(port, "POST", "/auth/passkeys/register/options", token=registering)
        rid, rclient, robject = passkey.registration_parts(options)
        if n % 2:
            robject = mutate(rnd, robject, HEADS)
        else:
            rclient = mutate(rnd, rclient, HEADS)
        status, _ = once(port, "POST", "/auth/passkeys/register",
                         {"name": "fuzz", "password": PASSWORD, "credential": passkey.registration(rid, rclient, robject)}, registering)
        seen.setdefault("register", set()).add(status)
        if status >= 500 or status not in (201, 400, 409, 422):
            bad.append(("register", status))
        if status == 201:
            registering = passkeyless_account(n)

        # A login with the known credential, one part mutated (the signature is never valid).
        _, login = once(port, "POST", "/auth/passkeys/login/options")
        lclient = passkey.client_data("webauthn.get", login["challenge"])
        data = passkey.assertion_data(login["rpId"], n + 1)
        signature = bytes(rnd.randrange(256) for _ in range(64))
        part = n % 3
        lclient = mutate(rnd, lclient, HEADS) if part == 0 else lclient
        data = mutate(rnd, data, HEADS) if part == 1 else data
        signature = mutate(rnd, signature, HEADS) if part == 2 else signature
        status, _ = once(port, "POST", "/auth/passkeys/login", {"credential": passkey.assertion(credential_id, lclient, data, signature)})
        seen.setdefault("login", set()).add(status)
        if status >= 500 or status == 200:
            bad.append(("login", status))
    alive = server.alive()
    health = once(port, "GET", "/healthz")[0] if alive else None
    server.stop()
    ok = not bad and alive and health == 200
    statuses = "; ".join(f"{k}: {sorted(v)}" for k, v in sorted(seen.items()))
    return ok, f"{rounds} mutated registrations and logins; statuses {statuses}; refused wrongly {bad[:5] or 'none'}; alive {alive}"
