"""The figures of one scale, measured on every target in the same sitting.

Each figure runs `runs` rounds. A round first measures the figure's reference (the nginx ceiling
or the raw Argon2id rate), then the figure once on every target, in an order that rotates each
round, so every target's runs sit beside the others' and beside the reference: this
machine's speed drifts by the minute, and side-by-side runs are what make ratios mean something.
"""
import statistics
import time

from tools import PASSWORD, log, summarize

WARM_UP_S = 2


def order(targets, i):
    """Round `i`'s order. The builds of one variant (`default@old`, `default@new`) run next to each
    other, first one then the other; the variants take turns at going first."""
    groups = {}
    for t in targets:
        groups.setdefault(t.key.split("@")[0], []).append(t)
    groups = list(groups.values())
    k = i % len(groups)
    return [t for g in groups[k:] + groups[:k] for t in g[i % len(g):] + g[:i % len(g)]]


def rounds(targets, runs, reference, once):
    """`runs` rounds of `reference()` then `once(target, run)` for each target."""
    per_target = {t.key: [] for t in targets}
    references = []
    for i in range(runs):
        if reference is not None:
            references.append(reference())
        for t in order(targets, i):
            per_target[t.key].append(once(t, i))
            t.settle()
    return per_target, references


class Sitting:
    """All figures of one scale over the targets that take part in each."""

    def __init__(self, targets, wrk, ceiling, argon2, args, accounts):
        self.targets, self.wrk, self.ceiling, self.argon2 = targets, wrk, ceiling, argon2
        self.args, self.accounts = args, accounts
        self.results = {t.key: {"label": t.label, "kind": t.kind, **t.info} for t in targets}
        self.references = {}

    def taking(self, figure):
        chosen = getattr(self.args, "figures", None)
        return [t for t in self.targets if figure in t.figures and (not chosen or figure in chosen)]

    def record(self, figure, per_target):
        for key, runs in per_target.items():
            self.results[key][figure] = summarize(runs)

    def say(self, figure):
        parts = [f"{t.key} {self.results[t.key][figure]['rps']:,.1f}/s" for t in self.taking(figure)]
        log(f"[{self.accounts:,}] {figure}: " + ", ".join(parts))

    def startup(self):
        """Start to first `200 /healthz`, `runs` times per server, before the servers start for good."""
        targets = self.taking("startup")
        if not targets:
            return
        per_target, _ = rounds(targets, self.args.runs, None, lambda t, i: t.startup())
        for key, runs in per_target.items():
            self.results[key]["startup_ms"] = statistics.median(runs)
            self.results[key]["startup_runs"] = runs
        log(f"[{self.accounts:,}] start-up: " + ", ".join(f"{k} {statistics.median(v)} ms" for k, v in per_target.items()))

    def me(self):
        targets = self.taking("me")
        if not targets:
            return
        tokens = {t.key: {"BENCH_TOKEN": t.access_token()} for t in targets}
        for t in targets:
            self.wrk.run(t.base + "/auth/me", "me", env=tokens[t.key], duration=WARM_UP_S)
            t.settle()
        per_target, ceiling = rounds(
            targets, self.args.runs, lambda: self.wrk.run(self.ceiling.url, "ceiling"),
            lambda t, i: self.wrk.run(t.base + "/auth/me", "me", env=tokens[t.key]))
        self.record("me", per_target)
        self.references["ceiling"] = summarize(ceiling)
        self.say("me")
        log(f"[{self.accounts:,}] ceiling {self.references['ceiling']['rps']:,.0f}/s")

    def refresh(self):
        targets = self.taking("refresh")
        if not targets:
            return
        per_target, _ = rounds(targets, self.args.runs, None, lambda t, i: self.wrk.run(
            t.base + "/auth/refresh", "refresh", env={"BENCH_TOKENS": t.refresh_tokens(i), "BENCH_THREADS": "2"}))
        self.record("refresh", per_target)
        self.say("refresh")

    def _hashing(self, figure, script, env_of):
        targets = self.taking(figure)
        if not targets:
            return
        per_target, raw = rounds(targets, self.args.runs, lambda: self.argon2.rate(self.args.duration),
                                 lambda t, i: self.wrk.run(t.base + f"/auth/{figure}", script, env=env_of(i),
                                                           connections=16))
        self.record(figure, per_target)
        self.references[f"argon2_{figure}"] = {"rps": statistics.median(raw), "runs": raw}
        self.say(figure)
        log(f"[{self.accounts:,}] raw Argon2id beside {figure}: {statistics.median(raw):.1f}/s")

    def login(self):
        env = {"BENCH_ACCOUNTS": str(self.accounts), "BENCH_PASSWORD": PASSWORD}
        self._hashing("login", "login", lambda i: env)

    def signup(self):
        self._hashing("signup", "signup", lambda i: {"BENCH_RUN": str(i), "BENCH_PASSWORD": PASSWORD})

    def me_under_login(self):
        """`/auth/me` (-t1 -c4) while 16 connections of logins keep the hash pool full; and, beside
        each run, the same `/auth/me` while raw Argon2id (bench/argon2rate.c) hashes on as many
        threads at the pool's priority with the server's pool idle: the same load on the two cores
        without a login request, so the floor that the machine sets for this p99."""
        targets = self.taking("me_under_login")
        if not targets:
            return
        tokens = {t.key: {"BENCH_TOKEN": t.access_token()} for t in targets}
        login_env = {"BENCH_ACCOUNTS": str(self.accounts), "BENCH_PASSWORD": PASSWORD}
        logins = {t.key: [] for t in targets}
        floors = {t.key: [] for t in targets}

        def me(t):
            time.sleep(0.5)  # let the hashing fill the cores before measuring /auth/me
            return self.wrk.run(t.base + "/auth/me", "me", env=tokens[t.key], threads=1, connections=4)

        def under_logins(t):
            load = self.wrk.start(t.base + "/auth/login", "login", env=login_env, connections=16, threads=1)
            result = me(t)
            logins[t.key].append(self.wrk.finish(load))
            return result

        def beside_raw(t):
            load = self.argon2.start_beside(self.args.duration + 1)
            result = me(t)
            load.wait()
            return result

        def once(t, i):
            first, second = (under_logins, beside_raw) if i % 2 == 0 else (beside_raw, under_logins)
            results = {first: first(t)}
            t.settle()
            results[second] = second(t)
            floors[t.key].append(results[beside_raw])
            return results[under_logins]

        per_target, _ = rounds(targets, self.args.runs, None, once)
        self.record("me_under_login", per_target)
        self.record("login_under_me", logins)
        self.record("me_beside_hashing", floors)
        def p99(key, figure):
            m = self.results[key][figure]
            return f"{m['p99_ms']:.2f} ms" if m["rps"] else "no reply"
        log(f"[{self.accounts:,}] /auth/me p99 under login load: " + ", ".join(
            f"{t.key} {p99(t.key, 'me_under_login')} (beside raw hashing {p99(t.key, 'me_beside_hashing')})"
            for t in targets))

    def admin_search(self):
        """`GET /admin/api/users` as an operator, cycling through the console's searches
        (bench/lua/admin_search.lua), on two connections as a few operators would: its p99."""
        tokens = {}
        for t in self.taking("admin_search"):
            token = t.operator_token()
            if token:
                tokens[t.key] = {"BENCH_TOKEN": token, "BENCH_ACCOUNTS": str(self.accounts),
                                 "BENCH_MIDDLE_CURSOR": t.middle_cursor(token, self.accounts),
                                 "BENCH_KEY_CURSOR": t.key_cursor(token)}
        targets = [t for t in self.taking("admin_search") if t.key in tokens]
        if not targets:
            return
        for t in targets:
            self.wrk.run(t.base + "/admin/api/users", "admin_search", env=tokens[t.key], duration=WARM_UP_S,
                         threads=1, connections=2)
        per_target, _ = rounds(targets, self.args.runs, None, lambda t, i: self.wrk.run(
            t.base + "/admin/api/users", "admin_search", env=tokens[t.key], threads=1, connections=2))
        self.record("admin_search", per_target)
        log(f"[{self.accounts:,}] admin search: " + ", ".join(
            f"{t.key} p99 {self.results[t.key]['admin_search']['p99_ms']:.2f} ms "
            f"({self.results[t.key]['admin_search']['rps']:,.0f}/s)" for t in targets))

    def finish(self):
        for t in self.targets:
            self.results[t.key].update(t.memory())
            self.results[t.key].update(t.access_log_stats())
