"""Sign in with Apple attacked over HTTP: a real RS256 identity token (signed with a key made by
`openssl`, published by a local JWKS server standing in for Apple's) mutated part by part (header,
claims, signature: bit flips, cuts, insertions, swapped claims) and re-encoded, plus a burst of
tokens naming random `kid`s. The server must never answer 5xx, never accept a mutated token (a
`profile_required` or a login would be a forgery) nor the genuine one a second time, stay up, and ask Apple for its keys at most once
per 10 seconds however many unknown `kid`s it sees.
"""
import base64
import hashlib
import http.server
import json
import os
import random
import subprocess
import threading
import time
import uuid

from common import Server, mutate, once

SEED = 20261201
CLIENT_ID = "com.example.fuzz"


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Apple:
    """A JWKS of one RSA key made by openssl, served on a loopback port; counts the fetches."""

    def __init__(self, tmp):
        self.key = os.path.join(tmp, "apple.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", self.key],
                       check=True, capture_output=True)
        modulus = subprocess.run(["openssl", "rsa", "-in", self.key, "-noout", "-modulus"], check=True, capture_output=True, text=True)
        n = bytes.fromhex(modulus.stdout.strip().split("=", 1)[1])
        body = json.dumps({"keys": [{"kty": "RSA", "kid": "fuzz-1", "use": "sig", "alg": "RS256", "n": b64url(n), "e": "AQAB"}]}).encode()
        self.fetches = 0
        apple = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                apple.fetches += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/auth/keys"

    def sign(self, message):
        return subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.key], input=message, check=True, capture_output=True).stdout

    def stop(self):
        self.httpd.shutdown()


def claims(nonce):
    now = int(time.time())
    return {"iss": "https://appleid.apple.com", "aud": CLIENT_ID, "sub": "001." + uuid.uuid4().hex, "iat": now, "exp": now + 600,
            "nonce": hashlib.sha256(nonce.encode()).hexdigest(), "email": uuid.uuid4().hex[:10] + "@privaterelay.appleid.com",
            "email_verified": True}


def run(tmp, quick):
    rounds = 150 if quick else 1500
    apple = Apple(tmp)
    server = Server(tmp, os.path.join(tmp, "apple.sqlite"), ["--apple-client-id", CLIENT_ID, "--apple-jwks-url", apple.url])
    port = server.port
    rnd = random.Random(SEED)
    seen, bad = {}, []

    nonce = uuid.uuid4().hex
    header = json.dumps({"alg": "RS256", "kid": "fuzz-1"}).encode()
    payload = json.dumps(claims(nonce)).encode()
    signed = b64url(header) + "." + b64url(payload)
    signature = apple.sign(signed.encode())
    status, reply = once(port, "POST", "/auth/apple", {"identity_token": signed + "." + b64url(signature), "nonce": nonce})
    if status != 403 or (reply or {}).get("code") != "profile_required":
        server.stop()
        apple.stop()
        return False, f"the genuine token got {status} {reply}"
    # Accepted once: the same token and nonce again (a replay) is refused like any forgery.
    status, reply = once(port, "POST", "/auth/apple", {"identity_token": signed + "." + b64url(signature), "nonce": nonce})
    if status != 401 or (reply or {}).get("code") != "apple_token_invalid":
        server.stop()
        apple.stop()
        return False, f"the genuine token replayed got {status} {reply}"

    started = time.time()
    for n in range(rounds):
        part = n % 4
        h, p, s = header, payload, signature
        if part == 0:
            h = mutate(rnd, header)
        elif part == 1:
            p = mutate(rnd, payload)
        elif part == 2:
            s = mutate(rnd, signature)
        else:  # the claims of another token under this signature
            p = json.dumps(claims(nonce)).encode()
        token = b64url(h) + "." + b64url(p) + "." + b64url(s)
        if token == signed + "." + b64url(signature):
            continue
        status, _ = once(port, "POST", "/auth/apple", {"identity_token": token, "nonce": nonce})
        seen.setdefault("mutated", set()).add(status)
        if status not in (401, 422):
            bad.append(("mutated", part, status))
        # A token naming a kid Apple never had.
        unknown = b64url(json.dumps({"alg": "RS256", "kid": uuid.uuid4().hex}).encode()) + "." + b64url(payload) + "." + b64url(signature)
        status, _ = once(port, "POST", "/auth/apple", {"identity_token": unknown, "nonce": nonce})
        seen.setdefault("unknown kid", set()).add(status)
        if status != 401:
            bad.append(("unknown kid", status))
    elapsed = time.time() - started
    allowed = 2 + int(elapsed / 10)
    alive = server.alive()
    health = once(port, "GET", "/healthz")[0] if alive else None
    server.stop()
    apple.stop()
    ok = not bad and alive and health == 200 and apple.fetches <= allowed
    statuses = "; ".join(f"{k}: {sorted(v)}" for k, v in sorted(seen.items()))
    return ok, (f"{rounds} mutated tokens and {rounds} unknown kids in {elapsed:.0f} s; statuses {statuses}; accepted wrongly "
                f"{bad[:5] or 'none'}; JWKS fetched {apple.fetches} times (at most {allowed}); alive {alive}")
