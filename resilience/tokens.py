"""Tokens: mangled access tokens and a refresh grace replayed from another client.

Access tokens are re-signed with the server's own Ed25519 key (read from the SQLite file, as an
attacker with a copy of an unsealed database could), so only strict parsing can refuse them:
`=` padding on any part, non-zero unused bits in a last character, a `crit` or any header
parameter the server does not use, a header or claims member named twice (in any spelling).
Each must get `401 token_invalid`, also after the unmangled token was verified and cached; the
same re-signing without a mangle must get 200, so a refusal means strictness, not a bad
signature. Then a refresh token's grace repeat is replayed from another source address
(127.0.0.2) and with another User-Agent: each must be `refresh_token_reused` and end the session,
while the first client's own repeat gets the same pair. No 5xx anywhere.
"""
import base64
import hashlib
import http.client
import json
import os
import random
import sqlite3

from common import HOST, PASSWORD, Server, exchange, log, once, signup_body

# --- Ed25519 signing (RFC 8032 §5.1), enough to re-sign a token with a known seed --------------

_P = 2 ** 255 - 19
_L = 2 ** 252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P


def _add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e1 = (y1 - x1) * (y2 - x2) % _P
    e2 = (y1 + x1) * (y2 + x2) % _P
    c = 2 * t1 * t2 * _D % _P
    dd = 2 * z1 * z2 % _P
    e, f, g, h = e2 - e1, dd - c, dd + c, e2 + e1
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _times(n, point):
    result = (0, 1, 1, 0)
    while n:
        if n & 1:
            result = _add(result, point)
        point = _add(point, point)
        n >>= 1
    return result


def _base():
    y = 4 * pow(5, _P - 2, _P) % _P
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
    if x & 1:
        x = _P - x
    return (x, y, 1, x * y % _P)


_B = _base()


def _encode(point):
    x, y, z, _ = point
    zi = pow(z, _P - 2, _P)
    x, y = x * zi % _P, y * zi % _P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _h(data):
    return int.from_bytes(hashlib.sha512(data).digest(), "little")


def ed25519_sign(seed, message):
    digest = hashlib.sha512(seed).digest()
    a = int.from_bytes(digest[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    public = _encode(_times(a, _B))
    r = _h(digest[32:] + message) % _L
    big_r = _encode(_times(r, _B))
    s = (r + _h(big_r + public + message) * a) % _L
    return big_r + s.to_bytes(32, "little")


# --- token pieces ------------------------------------------------------------------------------

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(seed, enc_header, enc_claims):
    data = f"{enc_header}.{enc_claims}"
    return data + "." + b64(ed25519_sign(seed, data.encode()))


def with_unused_bits(part, bits):
    """`part` with `bits` or-ed into its last character (its unused low bits, when it has any)."""
    return part[:-1] + ALPHABET[ALPHABET.index(part[-1]) | bits]


def mangles(token, seed, kid, rng, randoms):
    """(name, token) pairs the server must refuse, each signed with its key."""
    h, c, s = token.split(".")
    header, claims = unb64(h).decode(), unb64(c).decode()
    base = f'"alg":"EdDSA","typ":"at+jwt","kid":"{kid}"'
    out = []
    for pad in ("=", "==", "==="):
        out.append((f"signature+{pad}", token + pad))
        out.append((f"header+{pad}", sign(seed, h + pad, c)))
        out.append((f"claims+{pad}", sign(seed, h, c + pad)))
    for bits in (1, 2, 3):
        out.append((f"signature bits {bits}", f"{h}.{c}.{with_unused_bits(s, bits)}"))
    if len(unb64(c)) % 3:
        out.append(("claims bits", sign(seed, h, with_unused_bits(c, 1))))
    extras = ['"crit":["exp"]', '"crit":[]', '"crit":["b64"],"b64":false', '"jku":"http://127.0.0.1:1/jwks"',
              '"jwk":{"kty":"OKP","crv":"Ed25519","x":"AA"}', '"x5u":"http://127.0.0.1:1/x"', '"cty":"JWT"', '"zip":"DEF"']
    for extra in extras:
        out.append((f"header {extra[:12]}", sign(seed, b64(f"{{{base},{extra}}}".encode()), c)))
    dup_headers = [
        f'{{"alg":"none",{base}}}', f'{{{base},"alg":"none"}}', f'{{{base},"kid":"{kid}"}}',
        f'{{{base},"\\u0061lg":"EdDSA"}}', f'{{{base},"t\\u0079p":"at+jwt"}}',
    ]
    for dup in dup_headers:
        out.append((f"duplicate header {dup[:14]}", sign(seed, b64(dup.encode()), c)))
    sub = json.loads(claims)["sub"]
    other = "00000000-0000-4000-8000-000000000000"
    for prefix in (f'"sub":"{other}",', f'"s\\u0075b":"{other}",', f'"sub":"{sub}",'):
        out.append((f"duplicate claim {prefix[:10]}", sign(seed, h, b64(("{" + prefix + claims[1:]).encode()))))
    out.append(("duplicate claim nested", sign(seed, h, b64((claims[:-1] + ',"x":{"a":1,"a":2}}').encode()))))
    # Seeded random combinations: a random name of the token's repeated, in a random spelling.
    names_h = ["alg", "typ", "kid"]
    names_c = list(json.loads(claims))
    for i in range(randoms):
        if rng.random() < 0.5:
            name = rng.choice(names_h)
            spelled = "".join(f"\\u{ord(ch):04x}" if rng.random() < 0.5 else ch for ch in name)
            value = json.dumps(json.loads(header)[name])
            text = header[:-1] + f',"{spelled}":{value}}}' if rng.random() < 0.5 else f'{{"{spelled}":{value},' + header[1:]
            out.append((f"random header {i}", sign(seed, b64(text.encode()), c)))
        else:
            name = rng.choice(names_c)
            spelled = "".join(f"\\u{ord(ch):04x}" if rng.random() < 0.5 else ch for ch in name)
            value = json.dumps(json.loads(claims)[name])
            text = claims[:-1] + f',"{spelled}":{value}}}' if rng.random() < 0.5 else f'{{"{spelled}":{value},' + claims[1:]
            pad = "=" * rng.choice([0, 0, 1, 2])
            out.append((f"random claims {i}", sign(seed, h, b64(text.encode()) + pad)))
    return out


def refresh(port, token, agent, source=None):
    c = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(source, 0) if source else None)
    try:
        c.request("POST", "/auth/refresh", body=json.dumps({"refresh": token}),
                  headers={"Content-Type": "application/json", "User-Agent": agent})
        r = c.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        c.close()


def run(tmp, quick):
    db = os.path.join(tmp, "tokens.sqlite")
    server = Server(tmp, db)
    failures, checked, five_hundreds = [], 0, 0
    try:
        name = "tok" + os.urandom(3).hex()
        assert once(server.port, "POST", "/auth/signup", signup_body(name))[0] == 202
        status, pair = once(server.port, "POST", "/auth/login", {"username": name, "password": PASSWORD})
        assert status == 200, pair
        token = pair["access"]
        with sqlite3.connect(db) as con:
            kid, seed = con.execute("SELECT kid, seed FROM signing_keys WHERE retired_at IS NULL").fetchone()
        h, c, _ = token.split(".")
        if sign(seed, h, c) != token:
            return False, "re-signing the server's own token did not give the same bytes (Ed25519 here is wrong)"
        # Controls: re-signed tokens without a mangle are accepted.
        reordered = b64(f'{{"kid":"{kid}","typ":"at+jwt","alg":"EdDSA"}}'.encode())
        for control in (token, sign(seed, reordered, c)):
            status, _ = once(server.port, "GET", "/auth/me", token=control)
            if status != 200:
                failures.append(f"control {status}")
        rng = random.Random(20261130)
        for label, mangled in mangles(token, seed, kid, rng, 40 if quick else 400):
            conn = http.client.HTTPConnection(HOST, server.port, timeout=10)
            try:
                status, _, reply = exchange(conn, "GET", "/auth/me", token=mangled)
            finally:
                conn.close()
            checked += 1
            five_hundreds += status >= 500
            if status != 401 or (reply or {}).get("code") != "token_invalid":
                failures.append(f"{label}: {status} {(reply or {}).get('code')}")

        # Grace replay: the first client gets its pair again; another address or agent is reuse.
        replays = {}
        for label, agent, source in (("address", "App/1.0", "127.0.0.2"), ("agent", "App/1.1", None)):
            status, pair = once(server.port, "POST", "/auth/login", {"username": name, "password": PASSWORD})
            status, first = refresh(server.port, pair["refresh"], "App/1.0")
            again = refresh(server.port, pair["refresh"], "App/1.0")
            if status != 200 or again[0] != 200 or again[1]["refresh"] != first["refresh"]:
                failures.append(f"grace repeat by the same client: {status} {again[0]}")
                continue
            try:
                status, reply = refresh(server.port, pair["refresh"], agent, source)
            except OSError as e:
                replays[label] = f"SKIP ({e})"
                continue
            me, _ = once(server.port, "GET", "/auth/me", token=first["access"])
            ok = status == 401 and (reply or {}).get("code") == "refresh_token_reused" and me == 401
            replays[label] = "refused" if ok else f"{status} {(reply or {}).get('code')}, me {me}"
            if not ok:
                failures.append(f"grace replay from another {label}: {replays[label]}")
        alive = once(server.port, "GET", "/healthz")[0] == 200
    finally:
        server.stop()
    if not alive:
        failures.append("server not answering /healthz")
    if five_hundreds:
        failures.append(f"{five_hundreds} 5xx")
    if failures:
        figures = f"{len(failures)} failures: {'; '.join(failures[:5])}"
    else:
        figures = f"{checked} mangled tokens re-signed with the server's key, all 401 token_invalid (re-signed controls 200)"
    figures += f"; grace replay from another address {replays.get('address')}, another User-Agent {replays.get('agent')}"
    log(f"tokens: {figures}")
    return not failures, figures
