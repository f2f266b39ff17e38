"""What the bench prints and writes: a Markdown table per scale, the scale rule, the old/new
comparison of two builds, and the SVG chart of each figure as a share of its reference."""
import statistics
from html import escape

# Issue 13's targets (issue 7's for sign-up), shown beside the figures.
GOALS = {
    "me": "≥ 50% of ceiling (PostgreSQL: ≥ 20%)",
    "refresh": "≥ 8,000/s at 1k, ≥ 7,000/s at 1M accounts",
    "login": "≥ 95% of raw Argon2id",
    "signup": "≥ 85% of raw Argon2id",
    "me_under_login": "p99 < 3 ms",
    "admin_search": "p99 < 20 ms",
    "memory": "< 100 MiB at 1M accounts",
    "startup_ms": "< 100 ms",
}
SCALE_RULE = 20  # percent: no figure may fall by more than this from the smallest to the largest scale


def rate(v):
    return f"{v:,.0f}/s" if v >= 100 else f"{v:,.1f}/s"


def ms(v):
    return f"{v:.2f} ms" if v < 10 else f"{v:.1f} ms" if v < 100 else f"{v:,.0f} ms"


def percent(v):
    return f"{v:.1f}%" if v < 1 else f"{v:.0f}%"


def times(a, b):
    return f"{a / b:,.1f}× original"


def peer_of(scale):
    return next((r for r in scale["targets"].values() if r["kind"] == "peer"), None)


def floor_p99(r):
    """The `/auth/me` p99 beside raw hashing and no login (the floor of `me_under_login`), or None."""
    floor = r.get("me_beside_hashing")
    return floor["p99_ms"] if floor and floor["rps"] else None


def cell(scale, key, figure):
    """One figure of one target, with its share of the reference and its multiple of the peer."""
    r = scale["targets"][key]
    refs = scale["references"]
    peer = peer_of(scale)
    if figure in ("me", "refresh", "login", "signup"):
        if figure not in r:
            return "–"
        f = r[figure]
        if not f["rps"]:
            return "no reply within a run"
        text = f"{rate(f['rps'])}, p99 {ms(f['p99_ms'])}"
        notes = []
        if figure == "me":
            notes.append(f"{percent(100 * f['rps'] / refs['ceiling']['rps'])} of ceiling")
        if figure in ("login", "signup") and r["kind"] == "server":
            notes.append(f"{100 * f['rps'] / refs[f'argon2_{figure}']['rps']:.0f}% of raw")
        if peer is not None and r["kind"] == "server" and peer.get(figure, {}).get("rps"):
            notes.append(times(f["rps"], peer[figure]["rps"]))
        if f["errors"]:
            notes.append(f"{f['errors']:,} errors")
        return text + (" — " + ", ".join(notes) if notes else "")
    if figure == "me_under_login":
        if figure not in r:
            return "–"
        m, lg = r["me_under_login"], r["login_under_me"]
        if not m["rps"]:
            return f"no reply within a run (logins {rate(lg['rps'])})"
        text = f"p99 {ms(m['p99_ms'])} ({rate(m['rps'])}; logins {rate(lg['rps'])})"
        floor = floor_p99(r)
        return text + (f" — beside raw hashing and no login: p99 {ms(floor)}" if floor is not None else "")
    if figure == "admin_search":
        if figure not in r:
            return "–"
        f = r[figure]
        if not f["rps"]:
            return "no reply within a run"
        return f"p99 {ms(f['p99_ms'])}, p50 {ms(f['p50_ms'])} ({rate(f['rps'])} on 2 connections)" + (
            f" — {f['errors']:,} errors" if f["errors"] else "")
    if figure == "memory":
        if "peak_rss_mib" in r:
            return f"{r['peak_rss_mib']} MiB peak RSS"
        if "pss_mib" in r:
            return f"{r['pss_mib']} MiB PSS, {r['processes']} processes, at the end"
        return "–"
    if figure == "startup_ms":
        return f"{r['startup_ms']:.1f} ms" if "startup_ms" in r else "–"
    if figure == "access_log":
        if "access_log_lines" not in r:
            return "off" if r["kind"] == "server" else "–"
        text = f"{r['access_log_lines']:,} lines"
        if "log_lines_dropped" in r:
            text += f", {r['log_lines_dropped']:,.0f} dropped"
        return text
    raise KeyError(figure)


ROWS = [
    ("`GET /auth/me`", "me", lambda refs: f"nginx {rate(refs['ceiling']['rps'])}, p99 {refs['ceiling']['p99_ms']:.1f} ms"),
    ("`POST /auth/refresh`", "refresh", lambda refs: ""),
    ("`POST /auth/login`", "login", lambda refs: f"raw Argon2id {rate(refs['argon2_login']['rps'])}"),
    ("`POST /auth/signup`", "signup", lambda refs: f"raw Argon2id {rate(refs['argon2_signup']['rps'])}"),
    ("`/auth/me` while logins saturate hashing", "me_under_login", lambda refs: ""),
    ("`GET /admin/api/users` (the console's searches)", "admin_search", lambda refs: ""),
    ("memory (whole run)", "memory", lambda refs: ""),
    ("start to first `200 /healthz`", "startup_ms", lambda refs: ""),
    ("access log written", "access_log", lambda refs: ""),
]


def table(scale):
    """One Markdown table for one scale: a column per target, the reference measured beside each
    figure, and the goal."""
    keys = list(scale["targets"])
    head = "| figure | " + " | ".join(scale["targets"][k]["label"] for k in keys) + " | reference (beside) | goal |"
    lines = [f"{scale['accounts']:,} accounts", "", head, "|---|" + "---|" * (len(keys) + 2)]
    refs = scale["references"]
    for name, figure, reference in ROWS:
        try:
            ref = reference(refs)
        except KeyError:
            ref = ""
        cells = [cell(scale, k, figure) for k in keys]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {ref} | {GOALS.get(figure, '')} |")
    return "\n".join(lines)


def scale_rule(scales):
    """From the smallest to the largest scale, each server figure's change (rates: higher is better)."""
    if len(scales) < 2:
        return ""
    first, last = scales[0], scales[-1]
    keys = [k for k, r in first["targets"].items() if r["kind"] == "server" and k in last["targets"]]
    lines = [f"Scale rule: from {first['accounts']:,} to {last['accounts']:,} accounts no figure may fall by more "
             f"than {SCALE_RULE}% (** marks those that did)", "",
             "| figure | " + " | ".join(first["targets"][k]["label"] for k in keys) + " |",
             "|---|" + "---|" * len(keys)]
    for name, figure, _ in ROWS[:4]:
        cells = []
        for k in keys:
            a, b = first["targets"][k].get(figure), last["targets"][k].get(figure)
            if not a or not b:
                cells.append("–")
                continue
            change = 100 * (b["rps"] - a["rps"]) / a["rps"]
            text = f"{change:+.0f}%"
            if figure == "me":  # the ceiling drifts too: the share of it is the fairer reading
                sa = a["rps"] / first["references"]["ceiling"]["rps"]
                sb = b["rps"] / last["references"]["ceiling"]["rps"]
                text += f" (share of ceiling {100 * (sb - sa) / sa:+.0f}%)"
            cells.append(("**" + text + "**") if change < -SCALE_RULE else text)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# -- comparison of two builds

COMPARED = [  # (name, figure, higher is better)
    ("`GET /auth/me` (/s)", "me", True),
    ("`POST /auth/refresh` (/s)", "refresh", True),
    ("`POST /auth/login` (/s)", "login", True),
    ("`POST /auth/signup` (/s)", "signup", True),
    ("`/auth/me` p99 under logins (ms)", "me_under_login", False),
    ("admin search p99 (ms)", "admin_search", False),
    ("peak RSS (MiB)", "peak_rss_mib", False),
    ("start-up (ms)", "startup_ms", False),
]


def per_round(result, figure):
    """The figure's value in each round (rounds pair an old run with the new run beside it)."""
    if figure == "startup_ms":
        return result.get("startup_runs", [])
    if figure == "peak_rss_mib":
        return [result[figure]] if figure in result else []
    if figure not in result:
        return []
    if figure in ("me_under_login", "admin_search"):
        return [r["p99_us"] / 1000 for r in result[figure]["runs"]]
    return [r["rps"] for r in result[figure]["runs"]]


def comparisons(scale):
    """(variant, figure name, old median, new median, change %, lowest and highest round's change %,
    worse by %) for every figure both builds ran. The change is the median over rounds of the new
    run against the old run beside it, so drift of the machine between rounds cancels out."""
    out = []
    targets = scale["targets"]
    for key in [k for k in targets if k.endswith("@old")]:
        old, new = targets[key], targets.get(key[:-4] + "@new")
        if new is None:
            continue
        variant = old["label"].replace(" (old)", "")
        for name, figure, higher in COMPARED:
            a, b = per_round(old, figure), per_round(new, figure)
            pairs = [(x, y) for x, y in zip(a, b) if x]
            if not pairs:
                continue
            changes = sorted(100 * (y - x) / x for x, y in pairs)
            change = statistics.median(changes)
            out.append((variant, name, statistics.median(a), statistics.median(b), change, changes[0], changes[-1],
                        -change if higher else change))
    return out


def compare_table(scale, threshold):
    lines = [f"{scale['accounts']:,} accounts: old / new (medians), change (median over rounds of new against "
             "the old run beside it; in brackets the lowest and highest round)", "",
             "| variant | figure | old | new | change |", "|---|---|---|---|---|"]
    worse = []
    for variant, name, a, b, change, low, high, worse_by in comparisons(scale):
        flag = ""
        if threshold is not None and worse_by > threshold:
            flag = f" **worse by more than {threshold:g}%**"
            worse.append(f"{scale['accounts']:,} accounts, {variant}: {name} {change:+.1f}%")
        spread = f" ({low:+.0f}% … {high:+.0f}%)" if high != low else ""
        lines.append(f"| {variant} | {name} | {a:,.1f} | {b:,.1f} | {change:+.1f}%{spread}{flag} |")
    seeds = [f"{r['label']}: its own database, migrated by its binary and seeded for it in {r['seed_s']} s"
             for r in scale["targets"].values() if "seed_s" in r]
    if seeds:
        lines += [""] + seeds
    return "\n".join(lines), worse


# -- the chart

COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"]


def goal(figure, target):
    """The share of its reference a figure should reach (issue 13; sign-up: issue 7)."""
    if figure == "me":
        return 20 if target.get("store") == "postgres" else 50
    return {"login": 95, "signup": 85}[figure]


def svg(report):
    """Horizontal bars, one per server target and scale, in three panels: each figure as a share of
    the reference measured beside it (goal marked), as a multiple of the original backend's
    figure, and the p99 of `/auth/me` while logins saturate hashing (goal marked). Each bar's label
    also gives the rate and p99 behind it."""
    scales = report["results"]
    servers = [k for k, r in scales[0]["targets"].items() if r["kind"] == "server"]
    labels = {k: scales[0]["targets"][k]["label"] for k in servers}

    def rate_p99(f):
        return f"{rate(f['rps'])}, p99 {ms(f['p99_ms'])}"

    def panel(rows, value_of):
        """rows: (label, figure, extra); value_of(scale, target, figure, extra) -> (value, text, goal)."""
        out = []
        for label, figure, extra in rows:
            entries = []
            for s in scales:
                for k in servers:
                    if figure in s["targets"][k]:
                        got = value_of(s, s["targets"][k], figure, extra)
                        if got is not None:
                            entries.append((s["accounts"], k) + got)
            if entries:
                out.append((label, entries))
        return out

    def share(s, r, figure, ref):
        if ref not in s["references"]:
            return None
        v = 100 * r[figure]["rps"] / s["references"][ref]["rps"]
        return v, f"{v:.0f}% ({rate_p99(r[figure])})", goal(figure, r)

    def multiple(s, r, figure, _):
        peer = peer_of(s)
        if peer is None or not peer.get(figure, {}).get("rps"):
            return None
        v = r[figure]["rps"] / peer[figure]["rps"]
        return v, f"{v:,.1f}× ({rate(r[figure]['rps'])} against {rate(peer[figure]['rps'])})", None

    def p99(s, r, figure, _):
        v = r[figure]["p99_ms"]
        floor = floor_p99(r)
        beside = f"; beside raw hashing {ms(floor)}" if floor is not None else ""
        return v, f"{ms(v)} ({rate(r[figure]['rps'])}; logins {rate(r['login_under_me']['rps'])}{beside})", 3

    shares = panel([("GET /auth/me ÷ nginx ceiling", "me", "ceiling"),
                    ("POST /auth/login ÷ raw Argon2id", "login", "argon2_login"),
                    ("POST /auth/signup ÷ raw Argon2id", "signup", "argon2_signup")], share)
    multiples = panel([("GET /auth/me", "me", None), ("POST /auth/refresh", "refresh", None),
                       ("POST /auth/login", "login", None), ("POST /auth/signup", "signup", None)], multiple)
    latencies = panel([("GET /auth/me p99", "me_under_login", None)], p99)

    def top(rows, at_least):
        return max([e[2] for _, entries in rows for e in entries] + [at_least])

    panels = [("Share of the reference measured beside it (dashed: the goal)", shares, min(150, top(shares, 100) * 1.05),
               100, "100%")]
    if multiples:
        panels.append(("Times the original backend (DRF + SimpleJWT under gunicorn, the same wrk scripts)",
                       multiples, top(multiples, 2) * 1.1, 1, "1× = the original backend"))
    if latencies:
        panels.append(("While 16 connections of logins saturate hashing (milliseconds; dashed: the goal)",
                       latencies, top(latencies, 5) * 1.1, None, ""))

    width, left, plot, bar = 980, 280, 400, 13
    height = 60 + sum(40 + sum(len(entries) * bar + 10 for _, entries in rows) for _, rows, _, _, _ in panels)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="#fff"/>',
           f'<text x="10" y="18" font-size="13" font-weight="bold">account-server: each figure beside its reference '
           f'({escape(report["machine_note"])}; the number left of a bar: accounts seeded)</text>']
    x = 10
    for i, k in enumerate(servers):
        out.append(f'<rect x="{x}" y="28" width="10" height="10" fill="{COLORS[i % len(COLORS)]}"/>'
                   f'<text x="{x + 14}" y="37">{escape(labels[k])}</text>')
        x += 24 + 6.2 * len(labels[k])
    y = 60
    for title, rows, full, marker, marker_text in panels:
        out.append(f'<text x="10" y="{y}" font-weight="bold">{escape(title)}</text>')
        y += 10
        first = y
        for label, entries in rows:
            out.append(f'<text x="10" y="{y + len(entries) * bar / 2 + 4}">{escape(label)}</text>')
            for accounts, k, v, text, target in entries:
                w = plot * min(v, full) / full
                out.append(f'<text x="{left - 4}" y="{y + bar - 3}" text-anchor="end" fill="#666">{accounts:,}</text>'
                           f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 2}" '
                           f'fill="{COLORS[servers.index(k) % len(COLORS)]}"/>')
                if target is not None:  # under the label, so the label stays readable
                    gx = left + plot * min(target, full) / full
                    out.append(f'<line x1="{gx:.1f}" y1="{y - 1}" x2="{gx:.1f}" y2="{y + bar - 1}" '
                               f'stroke="#000" stroke-dasharray="2,1"/>')
                out.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 3}" stroke="#fff" stroke-width="3" '
                           f'paint-order="stroke">{escape(text)}</text>')
                y += bar
            y += 10
        out.append(f'<line x1="{left}" y1="{first - 2}" x2="{left}" y2="{y - 8}" stroke="#999"/>')
        if marker is not None:
            mx = left + plot * marker / full
            out.append(f'<line x1="{mx:.1f}" y1="{first - 2}" x2="{mx:.1f}" y2="{y - 8}" stroke="#e15759"/>'
                       f'<text x="{mx + 2:.1f}" y="{y + 2}" fill="#e15759">{escape(marker_text)}</text>')
        y += 30
    out.append("</svg>")
    return "\n".join(out) + "\n"
