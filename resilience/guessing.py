"""Guessing behind a token: with a stolen access token, can the password be guessed through
`POST /auth/password/change` or `DELETE /auth/me`?

For each account: wrong passwords through change and deletion (mixed with failed logins) must
answer 403 `invalid_credentials` without a Bearer challenge until the account's back-off starts;
then change, deletion and login must all answer 429 with `Retry-After`, even with the right
password, and the session must live on. Then a burst of parallel wrong guesses behind one token:
at most the back-off's limit of them may get a password check (403); the rest are 429.
"""
import threading

from attacks import against_fresh_server, request, verified_account

LIMIT = 5


def run(tmp, quick):
    return against_fresh_server(tmp, quick, attack)


def attack(server, _clock, quick):
    port = server.port
    problems = []
    accounts = 2 if quick else 10
    for index in range(accounts):
        name, _, password, token = verified_account(server, "gs")
        tries = [
            ("POST", "/auth/password/change", {"current_password": "wrong-{}", "new_password": "Fresh new secret 1"}),
            ("DELETE", "/auth/me", {"password": "wrong-{}"}),
            ("POST", "/auth/login", {"username": name, "password": "wrong-{}"}),
        ]
        for attempt in range(LIMIT):
            method, path, body = tries[(attempt + index) % len(tries)]
            body = {k: (v.format(attempt) if v.startswith("wrong-") else v) for k, v in body.items()}
            status, headers, reply, _ = request(port, method, path, body, None if path == "/auth/login" else token)
            expected = 401 if path == "/auth/login" else 403
            code = (reply or {}).get("code")
            if status != expected or code != "invalid_credentials":
                problems.append(f"{method} {path} wrong #{attempt}: {status} {code}")
            if path != "/auth/login" and headers.get("www-authenticate"):
                problems.append(f"{method} {path}: a Bearer challenge on a wrong password")
        for method, path, body in [
            ("POST", "/auth/password/change", {"current_password": password, "new_password": "Fresh new secret 1"}),
            ("DELETE", "/auth/me", {"password": password}),
            ("POST", "/auth/login", {"username": name, "password": password}),
        ]:
            status, headers, reply, _ = request(port, method, path, body, None if path == "/auth/login" else token)
            if status != 429 or not headers.get("retry-after"):
                problems.append(f"{method} {path} with the right password during the back-off: {status} {(reply or {}).get('code')}")
        if request(port, "GET", "/auth/me", token=token)[0] != 200:
            problems.append("the session did not survive wrong passwords")

    # Parallel guesses behind one token.
    _, _, _, token = verified_account(server, "gp")
    burst = 40 if quick else 200
    statuses = []
    lock = threading.Lock()

    def guess(number):
        method, path, body = (("POST", "/auth/password/change", {"current_password": f"guess-{number}", "new_password": "Fresh new secret 1"})
                              if number % 2 else ("DELETE", "/auth/me", {"password": f"guess-{number}"}))
        status = request(port, method, path, body, token)[0]
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(burst)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    checked = statuses.count(403)
    refused = statuses.count(429)
    if checked > LIMIT or checked + refused != burst:
        problems.append(f"parallel burst: {checked} password checks, {refused} refused, others {burst - checked - refused}")
    ok = not problems
    figures = (f"{accounts} accounts: wrong passwords through change, deletion and login share one back-off "
               f"(403 without a challenge, then 429 everywhere); {burst} parallel guesses behind one token: "
               f"{checked} checked (limit {LIMIT}), {refused} refused")
    if problems:
        figures += f"; problems: {problems[:4]}"
    return ok, figures
