"""Reset-confirmation enumeration: does `POST /auth/password/reset/confirm` tell a registered
address from an unknown one, by its replies or by its time?

Replies: for every code state (none asked for, live, spent by wrong tries, expired) and many
inputs (good, short, common, too-similar, empty and very long new passwords; wrong, malformed and
missing codes; the address in other letter cases), the registered and the unknown address must get
the same status, problem code, headers that matter and body fields.

Time: many wrong-code confirmations with a new password the account would accept, registered and
unknown interleaved, on a server with real-sized Argon2id; their medians must differ by less than
a fraction of one password check's time (measured beside them, as failed logins), the margin a
hash on one side would blow through. The Kolmogorov–Smirnov distance is reported as a figure.
"""
import random

from attacks import Client, against_fresh_server, ks_statistic, median_ms, observable, verified_account, wait_for_messages, code_in


def run(tmp, quick):
    return against_fresh_server(tmp, quick, attack, "--hash-memory", "19456", "--hash-passes", "2")


def attack(server, clock, quick):
    name, email, _, _ = verified_account(server, "rst")
    local = email.split("@")[0]
    unknown = f"ghost{random.randrange(10**8)}@resil.test"
    client = Client(server.port)

    def confirm(address, code, password):
        body = {"email": address, "code": code}
        if password is not None:
            body["new_password"] = password
        status, headers, parsed, elapsed = client.send("POST", "/auth/password/reset/confirm", body)
        return observable(status, parsed, headers), elapsed

    passwords = ["a perfectly good new secret", "short", "password123", f"x{name}x", f"{local}-again", "",
                 "가" * 5000, None, "Ａ" * 129]
    mismatches, compared, mailed, real = [], 0, 1, None
    for state in ("no code", "live code", "spent code", "expired code"):
        if state in ("live code", "expired code"):
            clock.advance(61)
            for address in (email, unknown):
                client.send("POST", "/auth/password/reset", {"email": address})
            mailed += 1
            found = wait_for_messages(server.maildir, email, mailed)
            real = code_in(found[-1]) if len(found) == mailed else None
            if state == "expired code":
                clock.advance(601)
        wrong = "000000" if real != "000000" else "111111"
        for code in (wrong, "12a456", "1234567", ""):
            for password in passwords:
                for variant in (str.lower,) if quick else (str.lower, str.upper):
                    a, _ = confirm(variant(email), code, password)
                    b, _ = confirm(variant(unknown), code, password)
                    compared += 1
                    if a != b:
                        mismatches.append((state, code, (password or "")[:12], a, b))

    # Time: a fresh live code for both, then interleaved wrong codes.
    clock.advance(61)
    for address in (email, unknown):
        client.send("POST", "/auth/password/reset", {"email": address})
    samples = 100 if quick else 500
    registered, ghost, hashes = [], [], []
    for index in range(samples):
        order = [(email, registered), (unknown, ghost)]
        random.shuffle(order)
        for address, times in order:
            times.append(confirm(address, "000000" if index % 2 else "999999", "a perfectly good new secret")[1])
        if index % 5 == 0:
            hashes.append(client.send("POST", "/auth/login", {"username": f"nobody{index}", "password": "wrong password"})[3])
    client.close()
    hash_ms = median_ms(hashes)
    difference = abs(median_ms(registered) - median_ms(ghost))
    margin = hash_ms * (0.5 if quick else 0.25)
    ks = ks_statistic(registered, ghost)
    ok = not mismatches and compared > 0 and difference < margin
    figures = (f"{compared} reply pairs in 4 code states, {len(mismatches)} differ; time over {samples} wrong codes each: "
               f"registered median {median_ms(registered):.2f} ms, unknown {median_ms(ghost):.2f} ms "
               f"(difference {difference:.2f} ms, limit {margin:.1f} ms = {'half' if quick else 'a quarter'} of one "
               f"password check, {hash_ms:.1f} ms), KS distance {ks:.2f}")
    if mismatches:
        figures += f"; first differences: {mismatches[:3]}"
    return ok, figures
