"""Pre-hijacking by a newer sign-up (Sudhodanan & Paverd, 2022): after a victim signs up, a stranger
signs up the victim's address with a password of their own; the victim's app then sends the newest
code (the stranger's sign-up's) with `sign_in: true` and the victim's `signup_token`.

Each round must end with no account and no session for the stranger's sign-up: the victim's code
is refused (409 `signup_superseded`), spent (the same code without `sign_in` is 400), and neither
password logs in; the stranger's own token with guessed codes gets nothing; `sign_in` without a
token is a 422 field error that tries no code; the code's mail named the stranger's nickname; and
the victim, signing up again, is signed in with the victim's details.
"""
from attacks import code_in, request, start, unique, wait_for_messages


def run(tmp, quick):
    server, clock = start(tmp)
    try:
        return attack(server, clock, quick)
    finally:
        server.stop()


def attack(server, clock, quick):
    port = server.port
    problems = []
    rounds = 2 if quick else 8
    refused = stranger_sessions = recovered = 0
    for index in range(rounds):
        address = f"{unique('victim')}@resil.test"
        victim = {"nick": unique("vi"), "password": "Victim-" + unique("pw")}
        stranger = {"nick": unique("st"), "password": "Stranger-" + unique("pw")}

        def sign_up(side):
            status, _, reply, _ = request(port, "POST", "/auth/signup", {
                "username": side["nick"], "email": address, "password": side["password"], "mbti": "INFJ"})
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
            return request(port, "POST", "/auth/email/verify", body)

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

        # Asking to sign in without a token is a field error; the code is not tried.
        status, _, reply, _ = verify(code, True, None)
        if status != 422 or not isinstance(reply, dict) or "signup_token" not in (reply.get("errors") or {}):
            problems.append(f"round {index}: sign_in without a token: {status} {reply}")

        # The victim types the newest code in the victim's app.
        status, _, reply, _ = verify(code, True, victim_token)
        code_name = reply.get("code") if isinstance(reply, dict) else None
        if status == 409 and code_name == "signup_superseded" and "session" not in reply:
            refused += 1
        else:
            problems.append(f"round {index}: the victim's code with the victim's token: {status} {reply}")
        if isinstance(reply, dict) and reply.get("session"):
            stranger_sessions += 1
        status, _, reply, _ = verify(code, False, None)
        if status != 400:
            problems.append(f"round {index}: the same code again, without sign_in: {status} {reply}")
        if logs_in(stranger) or logs_in(victim):
            stranger_sessions += logs_in(stranger)
            problems.append(f"round {index}: a password logs in after the refusal")

        # The victim signs up again and is signed in with the victim's details.
        clock.advance(61)
        token = sign_up(victim)
        code, _ = newest_code(3)
        if not (token and code):
            continue
        status, _, reply, _ = verify(code, True, token)
        session = reply.get("session") if isinstance(reply, dict) else None
        if status == 200 and session and session["user"]["username"] == victim["nick"] and logs_in(victim) and not logs_in(stranger):
            recovered += 1
        else:
            problems.append(f"round {index}: signing up again: {status} {reply}")

    ok = not problems and refused == rounds and recovered == rounds and stranger_sessions == 0
    figures = (f"{rounds} rounds: victim's code after a stranger's newer sign-up refused {refused}/{rounds}, "
               f"sessions or logins for the stranger's sign-up {stranger_sessions}, victim signed in after signing up "
               f"again {recovered}/{rounds}")
    if problems:
        figures += f"; first: {problems[:3]}"
    return ok, figures
