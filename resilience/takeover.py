"""Account takeover with one stolen access token: a thief who holds a victim's access token and
nothing else (not the password, no authenticator code or recovery code, no passkey, no mail, no
Apple ID of the victim), but who owns an account with a passkey of its own, an Apple ID of its own
(tokens of the Apple stand-in for another `sub`, linked to no account) and an authenticator secret
of its own, tries every endpoint that changes how the account signs in or proves who it is, its
password, its address, or the account itself, against the release server with the login back-off on.

Victims, fresh for every order: a password account verified by its mailed code; one with an
authenticator app on; one holding a passkey; an account made with Sign in with Apple (no password),
with and without a passkey; an operator (admin role) whose second factor is a passkey, its token
once of a password login (`amr` `pwd`) and once of a passkey login (`amr` `mfa`).

The endpoints: passkey registration and removal, Apple link and unlink, the authenticator's
enrolment, confirmation and removal, new recovery codes, the password change, account deletion,
`PATCH /auth/me` with `email` and `password` members beside the nickname's (which must change
neither), and the operator's own account through `/admin/api/users/{id}/remove-second-factor`,
`disable`, `delete` and, last, `end-sessions` (allowed: the owner's logout needs no proof either).
Each is tried with no proof; with the thief's passkey for a challenge of the victim's session; with
the thief's passkey under the victim's credential id (a forgery); with a challenge of the thief's
own session; with the thief's Apple ID; with a wrong password (at most 3 wrong passwords and codes
a victim, under the back-off's 5); and, where a second factor is asked, a code of the thief's own
secret. The steps run in several orders (the listed one, reversed, and, in the full form, shuffled).
Whenever an endpoint that adds a way in yields (a passkey, an Apple ID, an authenticator, a
password), the new way is used at once as the proof for every other endpoint and to sign in.

Every attempt must be refused (4xx; a 422 asking for a proof the thief lacks counts as refused),
never 2xx and never 5xx; the first that yields is named. Afterwards each owner still signs in the
way it did (password, with its code, Apple, passkey), the thief's ways do not, and `GET /auth/me`
(second factor and Apple link included), `GET /auth/passkeys` and, for operators, the admin
view of the account are as before.
"""
import base64
import hashlib
import json
import os
import random
import re
import subprocess
import time
import uuid

import passkey
from applefuzz import CLIENT_ID, Apple, b64url
from attacks import against_fresh_server, request, unique, verified_account
from common import SERVER, totp

SEED = 20261210
GUESSES = 3  # wrong passwords and codes a victim may get: under --login-attempts 5, so its owner still logs in
THIEF_PASSWORD = "Thief took over 9!"
KINDS = ("password", "password+totp", "password+passkey", "apple", "apple+passkey", "operator pwd", "operator mfa")
PASSKEY_KEEPS = ("id", "name", "credential_id", "algorithm", "backup_eligible", "transports", "created_at")
COUNTED = {(403, "invalid_credentials"), (400, "code_invalid"), (429, "rate_limited")}  # what the back-off counts


class World:
    """The server, the Apple stand-in, the thief, and every attempt so far."""

    def __init__(self, server, apple, tmp):
        self.server, self.port, self.apple, self.tmp = server, server.port, apple, tmp
        self.attempts = 0
        self.yields = []  # (line, method, path) of every attempt that yielded or failed with 5xx, first first
        self.problems = []  # what the after-checks found
        self.statuses = {}  # status -> count
        self.order = 0
        # The thief's own account, passkey and authenticator secret.
        _, _, password, self.thief_token = verified_account(server, "th")
        self.thief_key = passkey.Authenticator(tmp)
        _, options = self.send("POST", "/auth/passkeys/register/options", token=self.thief_token)
        status, made = self.send("POST", "/auth/passkeys/register", {
            "name": "thief's phone", "credential": self.thief_key.registration(options), "password": password}, self.thief_token)
        if status != 201:
            raise RuntimeError(f"the thief's own passkey: {status} {made}")
        self.thief_passkey_id = made["id"]
        self.thief_secret = base64.b32encode(os.urandom(20)).decode().rstrip("=")  # the thief's own authenticator

    def send(self, method, path, body=None, token=None):
        status, _, reply, _ = request(self.port, method, path, body, token)
        return status, reply if isinstance(reply, dict) else {}

    def apple_token(self, sub, email):
        """A fresh identity token of Apple ID `sub` and its raw nonce."""
        nonce = uuid.uuid4().hex
        now = int(time.time())
        claims = {"iss": "https://appleid.apple.com", "aud": CLIENT_ID, "sub": sub, "iat": now, "exp": now + 600,
                  "nonce": hashlib.sha256(nonce.encode()).hexdigest(), "email": email, "email_verified": True}
        signed = b64url(json.dumps({"alg": "RS256", "kid": "fuzz-1"}).encode()) + "." + b64url(json.dumps(claims).encode())
        return signed + "." + b64url(self.apple.sign(signed.encode())), nonce

    def passkey_login(self, key):
        _, options = self.send("POST", "/auth/passkeys/login/options")
        return self.send("POST", "/auth/passkeys/login", {"credential": key.assertion(options)})

    def record(self, victim, method, path, label, status, reply, yielded):
        self.attempts += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        code = reply.get("code") or "-"
        if isinstance(reply.get("errors"), dict):
            code += "(" + ",".join(sorted(reply["errors"])) + ")"
        verdict = "YIELDED" if yielded else ("SERVER ERROR" if status >= 500 else "refused" if status >= 400 else "allowed")
        line = f"order {self.order} {victim.kind} {method} {path} [{label}]: {status} {code}"
        print(f"  takeover: {line} {verdict}", flush=True)
        if yielded or status >= 500:
            self.yields.append((line, method, path))


class Victim:
    """One victim: how its owner signs in, what the thief holds (the stolen token), what it gained."""

    def __init__(self, world, kind):
        self.kind = kind
        self.password = self.key = self.sub = self.secret = self.admin_token = None
        self.counted = 0  # wrong passwords and codes the server counted against the account
        self.gained = {}  # way in the thief gained -> what it holds (a key, a secret, a password)
        self.thief_sub = "001." + uuid.uuid4().hex  # the thief's own Apple ID, linked to nothing
        self.thief_email = unique("thief") + "@privaterelay.appleid.com"
        self.thief_keys = []  # the passkeys the thief made for this account, one a registration
        self.totp_step = None  # the last step of the thief's enrolled authenticator the server took
        send = world.send
        if kind.startswith("apple"):
            self.sub, self.email = "001." + uuid.uuid4().hex, unique("ap") + "@privaterelay.appleid.com"
            token, nonce = world.apple_token(self.sub, self.email)
            status, reply = send("POST", "/auth/apple", {"identity_token": token, "nonce": nonce})
            if status != 403 or reply.get("code") != "profile_required":
                raise RuntimeError(f"{kind}: Apple sign-up: {status} {reply}")
            self.name = unique("ap")
            status, pair = send("POST", "/auth/apple/complete",
                                {"continuation_token": reply["continuation_token"], "username": self.name, "mbti": "ENFP"})
            if status != 201:
                raise RuntimeError(f"{kind}: Apple sign-up completed: {status} {pair}")
            self.token = pair["access"]
        else:
            self.name, self.email, self.password, self.token = verified_account(world.server, "tv")
        self.id = send("GET", "/auth/me", token=self.token)[1]["id"]
        if kind == "password+totp":
            status, reply = send("POST", "/auth/mfa/totp", {"password": self.password}, self.token)
            self.secret = reply.get("secret")
            status, reply = send("POST", "/auth/mfa/totp/confirm", {"code": totp(self.secret or "", -1)}, self.token)
            if status != 200:
                raise RuntimeError(f"{kind}: enrolment: {status} {reply}")
        if kind in ("password+passkey", "apple+passkey") or kind.startswith("operator"):
            self.key = passkey.Authenticator(world.tmp)
            _, options = send("POST", "/auth/passkeys/register/options", token=self.token)
            # The owner's own proof (a server that asks none ignores it): the password, or for an
            # account without one a fresh token of its Apple ID.
            proof = {"password": self.password} if self.password else self.apple_proof(world, self.sub, self.email)
            status, reply = send("POST", "/auth/passkeys/register",
                                 {"name": "own phone", "credential": self.key.registration(options), **proof}, self.token)
            if status != 201:
                raise RuntimeError(f"{kind}: the owner's passkey: {status} {reply}")
        if kind.startswith("operator"):
            grant = subprocess.run([SERVER, "admin", "grant", self.name, "--reason", "takeover check", "--database-url",
                                    "sqlite:" + world.server.db], capture_output=True, text=True, timeout=60)
            if grant.returncode != 0:
                raise RuntimeError(f"{kind}: admin grant: {grant.stderr.strip()}")
            status, pair = world.passkey_login(self.key)
            if status != 200 or "mfa" not in claims(pair["access"]).get("amr", []):
                raise RuntimeError(f"{kind}: the operator's passkey login: {status} {pair}")
            self.admin_token = pair["access"]
            if kind == "operator pwd" and claims(self.token).get("amr") != ["pwd"]:
                raise RuntimeError(f"{kind}: the password login's amr is {claims(self.token).get('amr')}")
            if kind == "operator mfa":
                self.token = world.passkey_login(self.key)[1]["access"]
        self.passkey_ids = [p["id"] for p in send("GET", "/auth/passkeys", token=self.token)[1].get("passkeys", [])]
        self.before = snapshot(world, self, self.token)

    @staticmethod
    def apple_proof(world, sub, email):
        token, nonce = world.apple_token(sub, email)
        return {"apple_identity_token": token, "apple_nonce": nonce}


def claims(access):
    part = access.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def flat(value, prefix=""):
    """A snapshot as {dotted key: value}; a list of passkeys as its names, and each passkey's fields
    under `[id]`."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(flat(v, f"{prefix}.{k}" if prefix else k))
    elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
        out[prefix] = sorted(str(v.get("name")) for v in value)
        for v in value:
            out.update(flat(v, f"{prefix}[{str(v.get('id')).lower()}]"))
    else:
        out[prefix] = value
    return out


def differences(before, after):
    """What changed between two snapshots, shortly: a passkey added or removed shows in the names only."""
    before, after = flat(before), flat(after)
    return [f"{k} {before.get(k)!r} -> {after.get(k)!r}" for k in sorted(set(before) | set(after))
            if before.get(k) != after.get(k) and ("[" not in k or (k in before and k in after))]


def snapshot(world, victim, token):
    """What must not change: the account (its second factor and Apple link included), its passkeys,
    and for an operator the admin view of it (row, passkeys, second factor)."""
    _, me = world.send("GET", "/auth/me", token=token)
    _, held = world.send("GET", "/auth/passkeys", token=token)
    shot = {"me": me, "passkeys": [{k: p.get(k) for k in PASSKEY_KEEPS} for p in held.get("passkeys", [])]}
    if victim.admin_token:
        status, page = world.send("GET", f"/admin/api/users/{victim.id}", token=victim.admin_token)
        user = {k: v for k, v in page.get("user", {}).items() if k != "last_login_at"}
        shot["admin"] = {"status": status, "user": user, "second_factor": page.get("second_factor"),
                         "passkeys": [{k: v for k, v in p.items() if k != "last_used_at"} for p in page.get("passkeys", [])]}
    return shot


# The proofs a thief can offer: (label, members or None when it cannot be had, whether it is a guess).

def thief_proofs(world, victim, guessing):
    proofs = [("no proof", lambda: {}, False),
              ("thief's passkey, victim's challenge", lambda: reauth(world, victim, world.thief_key, victim.token), False)]
    if victim.key:
        proofs.append(("thief's key as the victim's passkey",
                       lambda: reauth(world, victim, world.thief_key, victim.token, victim.key.credential_id), False))
    proofs.append(("thief's passkey, thief's challenge", lambda: reauth(world, victim, world.thief_key, world.thief_token), False))
    proofs.append(("thief's Apple ID", lambda: Victim.apple_proof(world, victim.thief_sub, victim.thief_email), False))
    if guessing:
        proofs.append(("wrong password", lambda: {"password": "Guess-" + uuid.uuid4().hex[:10]}, True))
    return proofs


def gained_proofs(world, victim, way):
    """The proof of a way in the thief gained."""
    if way == "passkey":
        return [("thief's new passkey", lambda: reauth(world, victim, victim.gained["passkey"], victim.token), False)]
    if way == "apple":
        return [("thief's linked Apple ID", lambda: Victim.apple_proof(world, victim.thief_sub, victim.thief_email), False)]
    if way == "password":
        return [("thief's new password", lambda: {"password": THIEF_PASSWORD}, False)]
    return [("thief's authenticator", lambda: {}, False)]  # the code goes in beside (second_factor)


def reauth(world, victim, key, session, credential_id=None):
    """An assertion by `key` for a reauthentication challenge of `session`; None when it gives none."""
    status, options = world.send("POST", "/auth/passkeys/reauth/options", token=session)
    if status != 200:
        print(f"  takeover: order {world.order} {victim.kind} POST /auth/passkeys/reauth/options "
              f"[{'victim' if session == victim.token else 'thief'}'s session]: {status} {options.get('code') or '-'} (no challenge)")
        return None
    return {"passkey_assertion": key.assertion(options, credential_id)}


def second_factor(world, victim, label):
    """The code the thief puts beside a proof: of the authenticator it enrolled, else of its own secret
    (a guess); a recovery code guess beside the Apple proof."""
    if "totp" in victim.gained:
        return {"code": enrolled_code(victim)}, False
    if label == "thief's Apple ID":
        return {"recovery_code": "thief-" + uuid.uuid4().hex[:5]}, True
    return {"code": totp(world.thief_secret)}, True


def enrolled_code(victim):
    """A code of the authenticator the thief enrolled, of a step the server has not taken yet (one
    step of skew either side is accepted, and each step once)."""
    now = int(time.time()) // 30
    step = max(now - 1, (victim.totp_step if victim.totp_step is not None else now - 2) + 1)
    victim.totp_step = min(step, now + 1)
    return totp(victim.gained["totp"], victim.totp_step - now)


class Step:
    """One endpoint: the way in it `adds` when it yields, whether it takes a `proof` (and so gets every
    proof the thief has, and is tried again with a way in the thief gained), whether it always
    `needs_code`, and whether a 2xx is `allowed` (asks for nothing of the owner's either)."""

    def __init__(self, name, method, path, adds=None, proof=True, needs_code=False, allowed=False):
        self.name, self.method, self.path = name, method, path
        self.adds, self.proof, self.needs_code, self.allowed = adds, proof, needs_code, allowed


STEPS = [
    Step("passkey add", "POST", "/auth/passkeys/register", adds="passkey"),
    Step("passkey remove", "DELETE", "/auth/passkeys/{id}"),
    Step("apple link", "POST", "/auth/apple/link", adds="apple"),
    Step("apple unlink", "DELETE", "/auth/apple/link"),
    Step("totp enrol", "POST", "/auth/mfa/totp", adds="totp"),
    Step("totp confirm", "POST", "/auth/mfa/totp/confirm", proof=False),
    Step("totp remove", "DELETE", "/auth/mfa/totp", needs_code=True),
    Step("recovery codes", "POST", "/auth/mfa/recovery-codes", needs_code=True),
    Step("password change", "POST", "/auth/password/change", adds="password"),
    Step("profile", "PATCH", "/auth/me", proof=False),
    Step("delete", "DELETE", "/auth/me"),
]
ADMIN_STEPS = [Step(f"admin {action}", "POST", "/admin/api/users/{self}/" + action, proof=False)
               for action in ("remove-second-factor", "disable", "delete")]
END_SESSIONS = Step("admin end-sessions", "POST", "/admin/api/users/{self}/end-sessions", proof=False, allowed=True)


def steps_of(victim):
    return STEPS + (ADMIN_STEPS if victim.kind.startswith("operator") else [])


def attempt(world, victim, step, label, members, guess):
    """One request of `step` with proof `members`; whether it yielded."""
    members = dict(members)
    if step.needs_code or (step.proof and (victim.secret or "totp" in victim.gained)):
        code, code_guess = second_factor(world, victim, label)
        if not (code_guess and victim.counted >= GUESSES):
            members.update(code)
            guess = guess or code_guess
    guess = guess or step.name == "totp confirm"
    if guess and victim.counted >= GUESSES:
        print(f"  takeover: order {world.order} {victim.kind} {step.method} {step.path} [{label}]: not sent (the victim's "
              f"{GUESSES} wrong guesses are spent)")
        return False
    token, path, body = victim.token, step.path.replace("{self}", victim.id), members
    if step.name == "passkey add":
        source = world.thief_token if label == "thief's registration options" else victim.token
        status, options = world.send("POST", "/auth/passkeys/register/options", token=source)
        if status != 200:
            world.record(victim, "POST", "/auth/passkeys/register/options", label, status, options, False)
            return False
        key = passkey.Authenticator(world.tmp)
        victim.thief_keys.append(key)
        body = {"name": "thief's phone", "credential": key.registration(options), **members}
    elif step.name == "passkey remove":
        target = victim.passkey_ids[0] if victim.passkey_ids else world.thief_passkey_id
        path = f"/auth/passkeys/{target}"
    elif step.name == "apple link":
        identity, nonce = world.apple_token(victim.thief_sub, victim.thief_email)
        body = {"identity_token": identity, "nonce": nonce, "authorization_code": "thief", **members}
    elif step.name == "apple unlink":
        body = members or None  # today's clients send no body
    elif step.name == "totp confirm":
        body = {"code": totp(world.thief_secret)}
    elif step.name == "password change":
        if "password" in body:
            body["current_password"] = body.pop("password")
        body["new_password"] = THIEF_PASSWORD
    elif step.name == "profile":
        other = "ISTP" if victim.before["me"].get("mbti") != "ISTP" else "ENTJ"
        body = {"mbti": other, "email": victim.thief_email, "password": THIEF_PASSWORD}
    elif step.name.startswith("admin"):
        body = {"reason": "the thief's request"}
    status, reply = world.send(step.method, path, body, token)
    if guess and (status, reply.get("code")) in COUNTED:
        victim.counted += 1
    yielded = 200 <= status < 300 and not step.allowed
    if step.name == "profile" and 200 <= status < 300:
        # Allowed, but for the nickname's members only: the address and the password stay.
        before = victim.before["me"]
        yielded = reply.get("email") != before.get("email") or reply.get("has_password") != before.get("has_password")
        world.send("PATCH", "/auth/me", {"mbti": before.get("mbti")}, token)
    world.record(victim, step.method, path, label, status, reply, yielded)
    if yielded and step.adds:
        gain(world, victim, step, reply, key if step.name == "passkey add" else None)
    return yielded


def gain(world, victim, step, reply, key):
    """A way in was added: hold it, and use it at once as the proof for every other endpoint and to sign in."""
    way = step.adds
    if way == "totp":
        secret = reply.get("secret")
        if not secret:
            return
        victim.gained["totp"] = secret
        status, confirmed = world.send("POST", "/auth/mfa/totp/confirm", {"code": enrolled_code(victim)}, victim.token)
        world.record(victim, "POST", "/auth/mfa/totp/confirm", "the thief's enrolment", status, confirmed, 200 <= status < 300)
        if status != 200:
            del victim.gained["totp"]
            return
    elif way in victim.gained:
        return
    else:
        victim.gained[way] = key or True
    print(f"  takeover: order {world.order} {victim.kind}: the thief gained a {way}; signing in and trying it everywhere", flush=True)
    sign_in_with(world, victim, way)
    others = [s for s in steps_of(victim) if s is not step and s.proof]
    others.sort(key=lambda s: s.name == "delete")  # deletion last: it ends everything
    for other in others:
        for label, make, guess in gained_proofs(world, victim, way):
            members = make()
            if members is not None:
                attempt(world, victim, other, label + " (chained)", members, guess)


def sign_in_with(world, victim, way):
    """The thief signing in with a way it gained: a session of the victim's, or its second-factor
    challenge (the first factor taken), is a takeover; with an authenticator the thief enrolled, the
    challenge is answered too."""
    if way == "passkey":
        method, path, label = "POST", "/auth/passkeys/login", "thief's new passkey"
        status, reply = world.passkey_login(victim.gained["passkey"])
    elif way == "apple":
        method, path, label = "POST", "/auth/apple", "thief's linked Apple ID"
        token, nonce = world.apple_token(victim.thief_sub, victim.thief_email)
        status, reply = world.send(method, path, {"identity_token": token, "nonce": nonce})
    elif way == "password":
        method, path, label = "POST", "/auth/login", "thief's new password"
        status, reply = world.send(method, path, {"username": victim.name, "password": THIEF_PASSWORD})
    else:
        return
    challenged = status == 403 and reply.get("code") == "mfa_required"
    world.record(victim, method, path, label, status, reply, status == 200 or challenged)
    if challenged and "totp" in victim.gained:
        status, reply = world.send("POST", "/auth/mfa/verify", {"mfa_token": reply.get("mfa_token"), "code": enrolled_code(victim)})
        world.record(victim, "POST", "/auth/mfa/verify", label + " and the thief's authenticator", status, reply, status == 200)


def owner_signs_in(world, victim):
    """Every way the owner signed in still works; the token of the first, and the problems."""
    problems, token = [], None
    if victim.password:
        status, reply = world.send("POST", "/auth/login", {"username": victim.name, "password": victim.password})
        if status == 403 and reply.get("code") == "mfa_required" and victim.secret:
            status, reply = world.send("POST", "/auth/mfa/verify", {"mfa_token": reply["mfa_token"], "code": totp(victim.secret)})
        if status == 200:
            token = reply["access"]
        else:
            backed_off = f" ({victim.counted} wrong guesses were counted)" if status == 429 else ""
            problems.append(f"the owner's password login: {status} {reply.get('code')}{backed_off}")
    if victim.sub:
        apple_token, nonce = world.apple_token(victim.sub, victim.email)
        status, reply = world.send("POST", "/auth/apple", {"identity_token": apple_token, "nonce": nonce})
        if status == 200:
            token = token or reply["access"]
        else:
            problems.append(f"the owner's Apple login: {status} {reply.get('code')}")
    if victim.key:
        status, reply = world.passkey_login(victim.key)
        if status == 200:
            token = token or reply["access"]
            if victim.admin_token:
                victim.admin_token = reply["access"]
        else:
            problems.append(f"the owner's passkey login: {status} {reply.get('code')}")
    return token, problems


def check_after(world, victim):
    token, problems = owner_signs_in(world, victim)
    if token:
        changed = differences(victim.before, snapshot(world, victim, token))
        if changed:
            problems.append("changed: " + "; ".join(changed))
    # The thief's ways in lead nowhere (the owner has signed in, so a counted failure here costs it nothing).
    for key in victim.thief_keys:
        if world.passkey_login(key)[0] == 200:
            problems.append("a passkey the thief made signs in")
            break
    apple_token, nonce = world.apple_token(victim.thief_sub, victim.thief_email)
    status, reply = world.send("POST", "/auth/apple", {"identity_token": apple_token, "nonce": nonce})
    if status == 200 or (status == 403 and reply.get("code") == "mfa_required"):
        problems.append("the thief's Apple ID signs in")
    status, reply = world.send("POST", "/auth/login", {"username": victim.name, "password": THIEF_PASSWORD})
    if status == 200 or reply.get("code") == "mfa_required":
        problems.append("the thief's password signs in")
    for problem in problems:
        world.problems.append(f"order {world.order} {victim.kind}: {problem}")
        print(f"  takeover: order {world.order} {victim.kind}: AFTER: {problem}", flush=True)
    return not problems


def orders(quick):
    """Permutations of the step list: as listed (adding first, so a chain shows early), reversed, and
    in the full form four shuffles."""
    rnd = random.Random(SEED)
    out = [list(range(len(STEPS) + len(ADMIN_STEPS))), list(reversed(range(len(STEPS) + len(ADMIN_STEPS))))]
    for _ in range(0 if quick else 4):
        shuffled = out[0][:]
        rnd.shuffle(shuffled)
        out.append(shuffled)
    return out


def run_victim(world, victim, order, number):
    steps = steps_of(victim)
    sequence = [steps[i] for i in order if i < len(steps)]
    # Which endpoints get a wrong password: three a victim (one with an authenticator, whose codes
    # are guesses too), others for each kind and order, so every order reaches each of them.
    provable = [s for s in steps if s.proof]
    share = 1 if victim.secret else GUESSES
    start = (number + KINDS.index(victim.kind)) * GUESSES
    guessed = {provable[(start + j) % len(provable)].name for j in range(share)}
    for step in sequence:
        if step.proof:
            proofs = thief_proofs(world, victim, step.name in guessed)
            if step.name == "passkey add":
                proofs.append(("thief's registration options", lambda: {}, False))
        else:
            proofs = [("thief's request", lambda: {}, False)]
        for label, make, guess in proofs:
            members = make()
            if members is not None:
                attempt(world, victim, step, label, members, guess)
    if victim.kind.startswith("operator"):
        attempt(world, victim, END_SESSIONS, "thief's request", {}, False)
    return check_after(world, victim)


def run(tmp, quick):
    apple = Apple(tmp)
    try:
        return against_fresh_server(tmp, quick, lambda server, _clock, q: attack(server, apple, tmp, q),
                                    "--apple-client-id", CLIENT_ID, "--apple-jwks-url", apple.url)
    finally:
        apple.stop()


def attack(server, apple, tmp, quick):
    world = World(server, apple, tmp)
    held = victims = 0
    runs = orders(quick)
    for number, order in enumerate(runs):
        world.order = number + 1
        for kind in KINDS:
            victim = Victim(world, kind)
            victims += 1
            held += run_victim(world, victim, order, number)
    alive = server.alive()
    statuses = ", ".join(f"{s}: {n}" for s, n in sorted(world.statuses.items()))
    figures = (f"{world.attempts} attempts with a stolen token on {victims} victims ({len(KINDS)} kinds) in {len(runs)} orders; "
               f"statuses {statuses}; owners unchanged and signing in {held}/{victims}; alive {alive}")
    if world.yields:
        endpoints = sorted({f"{method} {re.sub('[0-9A-Fa-f-]{36}', '{id}', path)}" for _, method, path in world.yields})
        figures = (f"FIRST YIELD: {world.yields[0][0]}; {len(world.yields)} attempts yielded, at {', '.join(endpoints)}; " + figures)
    if world.problems:
        figures += f"; after: {world.problems[:3]}"
    return not world.yields and not world.problems and alive, figures
