"""Sign-up enumeration: after signing up with an address, can any later request tell whether the
address already had an account?

Pairs of a taken address (a verified account's, in another letter case) and a free one sign up
with the same password; then every follow-up an attacker has is sent for both and compared
(status, problem code, Retry-After given or not, the Bearer challenge, body fields): logins with
that password by address and nickname and with a wrong one, the nickname from another address,
the same sign-up again at once, `verify` and `signup` code requests, a reset request, guessed codes
for verification (also signing in with the sign-up's `signup_token`) and reset; a minute later a
second sign-up and the first nickname; a day later the logins again. The sign-up's reply is
compared with its token's shape (length, alphabet). The owners' mailboxes must hold notices only,
never a code they did not ask for.
"""
from attacks import against_fresh_server, code_in, messages, observable, request, seen, unique, verified_account


def run(tmp, quick):
    return against_fresh_server(tmp, quick, attack)


def attack(server, clock, quick):
    port = server.port
    pairs = []
    for index in range(3 if quick else 12):
        _, owner_email, _, _ = verified_account(server, "own")
        password = "Stranger-" + unique("pw")
        taken = {"email": owner_email.upper() if index % 2 else owner_email.capitalize(), "nick": unique("tk"),
                 "owner": owner_email}
        free = {"email": f"{unique('free')}@resil.test", "nick": unique("fr")}
        pairs.append((taken, free, password))
    _, _, _, bystander = verified_account(server, "by")
    owners_mail = {taken["owner"]: len(messages(server.maildir, taken["owner"])) for taken, _, _ in pairs}

    def signup(side, password, nick=None, email=None, keep_token=False):
        status, headers, parsed, _ = request(port, "POST", "/auth/signup", {
            "username": nick or side["nick"], "email": email or side["email"], "password": password,
            "password_confirmation": password, "mbti": "ENFP"})
        if keep_token and isinstance(parsed, dict):
            side["token"] = parsed.get("signup_token")
        return observable(status, parsed, headers)

    probes = [
        ("sign-up", lambda s, p: signup(s, p, keep_token=True)),
        ("login by address with its password", lambda s, p: seen(port, "POST", "/auth/login", {"email": s["email"], "password": p})),
        ("login by nickname with its password", lambda s, p: seen(port, "POST", "/auth/login", {"username": s["nick"], "password": p})),
        ("login with a wrong password", lambda s, p: seen(port, "POST", "/auth/login", {"login": s["email"], "password": p + "x"})),
        ("the nickname from another address", lambda s, p: signup(s, p, email=f"{unique('other')}@resil.test")),
        ("the nickname in a profile change", lambda s, p: seen(port, "PATCH", "/auth/me", {"username": s["nick"]}, bystander)),
        ("the same sign-up again at once", lambda s, p: signup(s, p, nick=s["nick"] + "b")),
        ("a verify code", lambda s, p: seen(port, "POST", "/auth/email/code", {"email": s["email"], "purpose": "verify"})),
        ("a sign-up code", lambda s, p: seen(port, "POST", "/auth/email/code", {"email": s["email"], "purpose": "signup"})),
        ("a reset code", lambda s, p: seen(port, "POST", "/auth/password/reset", {"email": s["email"]})),
        ("a guessed code", lambda s, p: seen(port, "POST", "/auth/email/verify", {"email": s["email"], "code": "123456"})),
        ("a guessed code, signing in with the sign-up's token",
         lambda s, p: seen(port, "POST", "/auth/email/verify", {"email": s["email"], "code": "123456", "sign_in": True,
                                                                "signup_token": s.get("token") or ""})),
        ("a guessed reset code", lambda s, p: seen(port, "POST", "/auth/password/reset/confirm",
                                                   {"email": s["email"], "code": "123456", "new_password": "a fine new secret"})),
    ]
    later = [
        ("a second sign-up a minute later", lambda s, p: signup(s, p, nick=s["nick"] + "b")),
        ("the first nickname, released", lambda s, p: signup(s, p, email=f"{unique('fourth')}@resil.test")),
        ("the second nickname, held", lambda s, p: signup(s, p, nick=s["nick"] + "b", email=f"{unique('fifth')}@resil.test")),
    ]
    day_later = [
        ("login a day later", lambda s, p: seen(port, "POST", "/auth/login", {"username": s["nick"] + "b", "password": p})),
        ("login by address a day later", lambda s, p: seen(port, "POST", "/auth/login", {"email": s["email"], "password": p})),
    ]
    differences, compared = [], 0
    for phase, steps in (("at once", probes), ("a minute later", later), ("a day later", day_later)):
        if phase == "a minute later":
            clock.advance(61)
        if phase == "a day later":
            clock.advance(24 * 3600 + 60)
        for what, probe in steps:
            for taken, free, password in pairs:
                a, b = probe(taken, password), probe(free, password)
                compared += 1
                if a != b:
                    differences.append(f"{what}: taken {a} / free {b}")
    codes_to_owners = 0
    for owner, before in owners_mail.items():
        for message in messages(server.maildir, owner)[before:]:
            if code_in(message) and "reset" not in message.lower():
                codes_to_owners += 1
    sides = [side for taken, free, _ in pairs for side in (taken, free)]
    tokens = {side.get("token") for side in sides}
    tokens_ok = all(isinstance(t, str) and len(t) == 43 for t in tokens) and len(tokens) == len(sides)
    ok = not differences and codes_to_owners == 0 and compared > 0 and tokens_ok
    figures = (f"{len(pairs)} taken/free pairs, {compared} follow-up pairs over 3 phases (at once, +1 min, +1 day): "
               f"{len(differences)} differ; sign-up codes mailed to owners: {codes_to_owners}; "
               f"signup_token: {len(tokens)} distinct of {len(sides)} sign-ups, {'all 43-character' if tokens_ok else 'NOT all 43-character'}")
    if differences:
        figures += f"; first: {differences[:3]}"
    return ok, figures
