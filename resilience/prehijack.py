"""Pre-hijacking by a newer sign-up (Sudhodanan & Paverd, 2022): after a victim signs up, a stranger
signs up the victim's address with a password of their own, from another client (another
User-Agent, or another address: 127.0.0.2); the victim then sends the newest code (the stranger's
sign-up's). The rounds take turns: the victim's app sends it with `sign_in: true` and the victim's
`signup_token`; an app that knows no token sends it with `sign_in: true`; the original app sends
the plain request (no `sign_in`, no token).

Each round must end with no account and no session for the stranger's sign-up: the victim's code
is refused (409 `signup_superseded`: with the victim's token because it names the replaced
sign-up, without one because the stranger's sign-up is contested), spent (the same code again is
400), and neither password logs in; the stranger's own token with guessed codes gets nothing; the
code's mail named the stranger's nickname; and the victim, signing up again (now alone), is
signed in with the victim's details, by the same kind of request (so without a token too).
"""
from attacks import against_fresh_server, code_in, request, unique, wait_for_messages


def run(tmp, quick):
    return against_fresh_server(tmp, quick, attack)


def attack(server, clock, quick):
    port = server.port
    problems = []
    variants = ["token", "sign_in without a token", "plain"]
    rounds = 3 if quick else 9
    refused = stranger_sessions = recovered = 0
    for index in range(rounds):
        variant = variants[index % len(variants)]
        address = f"{unique('victim')}@resil.test"
        victim = {"nick": unique("vi"), "password": "Victim-" + unique("pw"), "agent": "VictimApp/1.0"}
        # Another client: another User-Agent, or (every other round) the same one from another address.
        stranger = {"nick": unique("st"), "password": "Stranger-" + unique("pw"),
                    "agent": "VictimApp/1.0" if index % 2 else "Stranger/6.6", "source": "127.0.0.2" if index % 2 else None}

        def sign_up(side):
            status, _, reply, _ = request(port, "POST", "/auth/signup", {
                "username": side["nick"], "email": address, "password": side["password"], "mbti": "INFJ"},
                headers={"User-Agent": side["agent"]}, source=side.get("source"))
            if status != 202 or not isinstance(reply, dict) or not reply.get("signup_token"):
                problems.append(f"round {index}: sign-up of {side['nick']}: {status} {reply}")
                return None
            return reply["signup_token"]

        def newest_code(count):
            found = wait_for_messages(server.maildir, address, count)
            if len(found) < count:
                problems.append(f"round {index}: {len(found)} of {count} messages arrived")
                return None, ""
            return code_in(found[count - 1]), found[count - 1].replace("\u200b", "")

        def verify(code, sign_in, token):
            body = {"email": address, "code": code}
            if sign_in:
                body["sign_in"] = True
            if token is not None:
                body["signup_token"] = token
            return request(port, "POST", "/auth/email/verify", body, headers={"User-Agent": victim["agent"]})

        def victims_request(code, token):
            """The victim's verification of `code` as this round's app sends it."""
            if variant == "token":
                return verify(code, True, token)
            return verify(code, variant != "plain", None)

        def logs_in(side):
            return request(port, "POST", "/auth/login", {"email": address, "password": side["password"]})[0] == 200

        victim_token = sign_up(victim)
        newest_code(1)
        clock.advance(61)  # past the address's code cooldown and one-message-a-minute budget
        stranger_token = sign_up(stranger)
        code, mail = newest_code(2)
        if not (victim_token and stranger_token and code):
            continue
        if stranger["nick"] not in mail:
            problems.append(f"round {index}: the code's mail does not name the stranger's nickname")

        # The stranger, holding only their token, guesses.
        guess = "000000" if code != "000000" else "111111"
        status, _, reply, _ = verify(guess, True, stranger_token)
        if status != 400:
            problems.append(f"round {index}: a guessed code with the stranger's token: {status} {reply}")

        # The victim types the newest code in the victim's app.
        status, _, reply, _ = victims_request(code, victim_token)
        code_name = reply.get("code") if isinstance(reply, dict) else None
        if status == 409 and code_name == "signup_superseded" and "session" not in reply:
            refused += 1
        else:
            problems.append(f"round {index}: the victim's code ({variant}): {status} {reply}")
        if isinstance(reply, dict) and reply.get("session"):
            stranger_sessions += 1
        status, _, reply, _ = verify(code, False, None)
        if status != 400:
            problems.append(f"round {index}: the same code again, without sign_in or token: {status} {reply}")
        if logs_in(stranger) or logs_in(victim):
            stranger_sessions += logs_in(stranger)
            problems.append(f"round {index}: a password logs in after the refusal")

        # The victim signs up again, alone, and is signed in (or, by the plain request, verified)
        # with the victim's details.
        clock.advance(61)
        token = sign_up(victim)
        code, _ = newest_code(3)
        if not (token and code):
            continue
        status, _, reply, _ = victims_request(code, token)
        session = reply.get("session") if isinstance(reply, dict) else None
        signed_in = (session and session["user"]["username"] == victim["nick"]) if variant != "plain" else session is None
        if status == 200 and signed_in and logs_in(victim) and not logs_in(stranger):
            recovered += 1
        else:
            problems.append(f"round {index}: signing up again: {status} {reply}")

    ok = not problems and refused == rounds and recovered == rounds and stranger_sessions == 0
    figures = (f"{rounds} rounds ({', '.join(variants)} in turn): victim's code after a stranger's newer sign-up "
               f"refused {refused}/{rounds}, "
               f"sessions or logins for the stranger's sign-up {stranger_sessions}, victim signed in after signing up "
               f"again {recovered}/{rounds}")
    if problems:
        figures += f"; first: {problems[:3]}"
    return ok, figures
