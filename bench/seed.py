#!/usr/bin/env python3
"""Seeds a migrated account database with N accounts, one session each, and a pool of sessions
whose refresh tokens the bench knows.

    seed.py DATABASE_URL N POOL PHC --server BINARY [--tokens FILE]

DATABASE_URL is the server's own: `sqlite:PATH` or `postgres://user@host:port/db` (run
`account-server migrate` on it first). Rows are written straight into the tables (SQLite: large
transactions; PostgreSQL: `COPY` through psql), so a million accounts take a minute or two rather
than the weeks a million Argon2 hashes would: every account gets the SAME password hash (one real
Argon2id PHC string passed in), so every seeded account has the same password.

- users `user<i>` / `user<i>@bench.test` (i = 0..N-1), verified, password hash PHC, created one a
  second up to now (user N-1 the newest), so the operators' search pages through distinct times;
- `benchop` / `benchop@bench.test`, the same password: the operator the admin search figure signs
  in as (the logins pick among `user<i>` only);
- session i of user i, and POOL more sessions, pool session j owned by user j % N;
- refresh tokens as the server issues them today when the schema has them (the session row holds
  generation 0 and the keyed hash of its first token, under a `refresh_derivation_key` the seeder
  writes into `settings` unless one is there), so a refresh run measures rotations, not the
  upgrade of tokens from before; otherwise (an older schema) the old layout, token `seed-<i>` and
  `pool-<j>` stored as SHA-256 in `refresh_tokens`. `--tokens FILE` gets the pool's tokens, one a
  line (line j is pool session j's);
- finished rows: the nickname skeletons and email keys the server computes, learned from the
  server itself (`--server BINARY`, required): the binary serves a throwaway SQLite database on a
  free loopback port, takes a details-first sign-up of each probe nickname (`user0123456789`,
  `benchop`: every character the seeded nicknames use), and the `pending_signups` rows it writes
  show each character's skeleton (UTS #39 maps each of these ASCII characters on its own) and the
  email key. A mapping that is not character by character, one that would give two seeded
  nicknames one skeleton, or an email key other than the address stops the seeder (status 1)
  before it writes anything.

The seeder writes the columns it knows and that the schema has (the baseline schema's and the
older nullable-skeleton one's alike); columns a newer schema added are left to their defaults.
When the schema lacks a table the seeder needs, or has a NOT NULL column without a default that
the seeder has no value for, it changes nothing and exits with status 3 (run.py then says that
this file needs teaching).
"""
import argparse
import base64
import hashlib
import hmac
import os
import random
import sqlite3
import subprocess
import shutil
import sys
import tempfile
import time
import uuid

sys.dont_write_bytecode = True  # no __pycache__ beside the bench's sources

from tools import PASSWORD, free_port, request, stop_process, wait_http  # noqa: E402

MBTI = ["INTJ", "INTP", "ENTJ", "ENTP", "INFJ", "INFP", "ENFJ", "ENFP",
        "ISTJ", "ISFJ", "ESTJ", "ESFJ", "ISTP", "ISFP", "ESTP", "ESFP"]
BATCH = 50_000
DAY_MS = 86_400_000
SCHEMA_UNKNOWN = 3

# The columns this seeder writes, in the order the row tuples below hold them.
KNOWN = {
    "users": ["id", "username", "username_key", "email", "email_key", "password_hash", "mbti",
              "email_verified", "created_at", "updated_at", "username_skeleton", "username_display_skeleton"],
    "sessions": ["id", "user_id", "created_at", "last_used_at", "expires_at", "user_agent", "revoked_at",
                 "refresh_generation", "refresh_hash", "amr"],
    "refresh_tokens": ["hash", "session_id", "issued_at", "used_at"],
}
# Needed only by the token layout from before, when sessions hold no refresh token of their own.
OLD_LAYOUT_ONLY = {"refresh_tokens"}
OPERATOR = "benchop"
# Between them every character of `user<i>` and of the operator's nickname (at most 20 each).
PROBES = ("user0123456789", OPERATOR)


class RefreshKeys:
    """The server's refresh-token keys (Services/RefreshToken.swift), all from `refresh_derivation_key`."""

    def __init__(self, derivation):
        self.tag = hmac.new(derivation, b"account-server refresh token tag", hashlib.sha256).digest()
        self.hash = hmac.new(derivation, b"account-server refresh token hash", hashlib.sha256).digest()

    def first(self, session_id):
        """A session's first token (generation 0, a random secret): its text and the hash the row keeps."""
        signed = bytes([1]) + uuid.UUID(session_id).bytes + (0).to_bytes(8, "big") + os.urandom(32)
        tag = hmac.new(self.tag, signed, hashlib.sha256).digest()[:15]
        text = base64.urlsafe_b64encode(signed + tag).decode().rstrip("=")
        return text, hmac.new(self.hash, signed, hashlib.sha256).digest()


class Skeletons:
    """Nickname skeletons as the server computes them, from the mapping of each character its
    probes showed."""

    def __init__(self, mapping):
        self.mapping = mapping

    def of(self, name):
        skeleton = "".join(self.mapping[c] for c in name)
        return skeleton, skeleton


class SchemaUnknown(Exception):
    pass


class SkeletonsUnknown(Exception):
    pass


def ordered_ids(now):
    """UUIDs in the layout of version 7 (a millisecond prefix, then random bits) whose prefix counts
    up, so each B-tree keyed by an id fills at its right edge: on PostgreSQL a million accounts take
    seconds instead of minutes of random page writes. The server looks ids up at random either way."""
    n = now << 12  # the millisecond, then a 12-bit counter in rand_a that carries into it
    while True:
        n += 1
        yield str(uuid.UUID(int=(n >> 12) << 80 | 0x7 << 76 | (n & 0xFFF) << 64 | 0b10 << 62 | random.getrandbits(62)))


def rows(count, pool, phc, keys, skeletons, pool_tokens):
    """Yields batches (table -> rows): users with their sessions and tokens, then the pool. With
    `keys` (RefreshKeys) each session holds its first token; without, tokens go to refresh_tokens.
    The pool's token texts are appended to `pool_tokens`."""
    now = int(time.time() * 1000)
    expires = now + 90 * DAY_MS
    ids = ordered_ids(now)
    user_ids = []

    def session(sid, uid, agent, old_text, sessions, tokens):
        if keys is None:
            sessions.append((sid, uid, now, now, expires, agent, None, None, None, "pwd"))
            tokens.append((hashlib.sha256(old_text.encode()).digest(), sid, now, None))
            return old_text
        text, kept = keys.first(sid)
        sessions.append((sid, uid, now, now, expires, agent, None, 0, kept, "pwd"))
        return text

    for start in range(0, count, BATCH):
        users, sessions, tokens = [], [], []
        for i in range(start, min(count, start + BATCH)):
            uid, sid = next(ids), next(ids)
            user_ids.append(uid)
            name = f"user{i}"
            created = now - (count - i) * 1000
            folded, displayed = skeletons.of(name)
            users.append((uid, name, name, f"{name}@bench.test", f"{name}@bench.test", phc, MBTI[i % 16], True, created, created,
                          folded, displayed))
            session(sid, uid, "seed", f"seed-{i}", sessions, tokens)
        yield {"users": users, "sessions": sessions, "refresh_tokens": tokens}
    folded, displayed = skeletons.of(OPERATOR)
    yield {"users": [(next(ids), OPERATOR, OPERATOR, f"{OPERATOR}@bench.test", f"{OPERATOR}@bench.test", phc, "INTJ", True,
                      now, now, folded, displayed)], "sessions": [], "refresh_tokens": []}
    for start in range(0, pool, BATCH):
        sessions, tokens = [], []
        for j in range(start, min(pool, start + BATCH)):
            pool_tokens.append(session(next(ids), user_ids[j % count], "pool", f"pool-{j}", sessions, tokens))
        yield {"users": [], "sessions": sessions, "refresh_tokens": tokens}


def plan(columns, old_layout):
    """`columns`: table -> [(name, required)] where required means NOT NULL without a default;
    `old_layout`: whether refresh tokens go to `refresh_tokens`. Returns table -> indexes into the
    KNOWN row tuples of the columns to write."""
    chosen = {}
    for table, known in KNOWN.items():
        if table in OLD_LAYOUT_ONLY and not old_layout:
            continue
        if table not in columns:
            raise SchemaUnknown(f"table {table} is missing")
        present = {name for name, _ in columns[table]}
        unknown = [name for name, required in columns[table] if required and name not in known]
        if unknown:
            raise SchemaUnknown(f"{table} has NOT NULL columns without a default: {', '.join(unknown)}")
        chosen[table] = [i for i, name in enumerate(known) if name in present]
    return chosen


def project(row, indexes):
    return tuple(row[i] for i in indexes)


class SQLiteTarget:
    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("PRAGMA cache_size=-200000")

    def columns(self):
        found = {}
        for table in list(KNOWN) + ["settings"]:
            info = self.db.execute(f"PRAGMA table_info({table})").fetchall()
            if info:
                # (cid, name, type, notnull, default, pk); an INTEGER PRIMARY KEY is the rowid.
                found[table] = [(c[1], bool(c[3]) and c[4] is None and not (c[5] and c[2].upper() == "INTEGER"))
                                for c in info]
        return found

    def execute(self, sql, parameters=()):
        return self.db.execute(sql, parameters).fetchall()

    def derivation_key(self):
        """The refresh derivation key in settings, written first if there is none; None if sealed."""
        self.db.execute("INSERT INTO settings (name, value) VALUES ('refresh_derivation_key', ?) ON CONFLICT (name) DO NOTHING",
                        (os.urandom(32),))
        value = bytes(self.db.execute("SELECT value FROM settings WHERE name = 'refresh_derivation_key'").fetchone()[0])
        return None if value.startswith(b"sbx1") else value


    def write(self, batch, chosen):
        self.db.execute("BEGIN")
        for table, indexes in chosen.items():
            if batch[table]:
                names = [KNOWN[table][i] for i in indexes]
                sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
                self.db.executemany(sql, (project(r, indexes) for r in batch[table]))
        self.db.execute("COMMIT")

    def finish(self):
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()


class PostgresTarget:
    """Writes through `psql` (COPY FROM STDIN, one COPY per table and batch); needs no driver."""

    def __init__(self, url):
        self.url = url

    def psql(self, *statements, stdin=None):
        command = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", self.url]
        for sql in statements:
            command += ["-c", sql]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, check=True).stdout

    def columns(self):
        found = {}
        out = self.psql("SELECT table_name, column_name, is_nullable, column_default IS NOT NULL"
                        " FROM information_schema.columns WHERE table_schema = current_schema()"
                        " AND table_name IN ('users', 'sessions', 'refresh_tokens', 'settings')"
                        " ORDER BY table_name, ordinal_position")
        for line in out.splitlines():
            table, name, nullable, has_default = line.split("|")
            found.setdefault(table, []).append((name, nullable == "NO" and has_default == "f"))
        return found

    def derivation_key(self):
        """The refresh derivation key in settings, written first if there is none; None if sealed."""
        value = self.psql("INSERT INTO settings (name, value) VALUES ('refresh_derivation_key', "
                          f"'\\x{os.urandom(32).hex()}') ON CONFLICT (name) DO NOTHING",
                          "SELECT encode(value, 'hex') FROM settings WHERE name = 'refresh_derivation_key'").split()[-1]
        value = bytes.fromhex(value)
        return None if value.startswith(b"sbx1") else value


    @staticmethod
    def text(value):
        """One field of COPY's text format."""
        if value is None:
            return r"\N"
        if value is True or value is False:
            return "t" if value else "f"
        if isinstance(value, bytes):
            return r"\\x" + value.hex()
        return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")

    def write(self, batch, chosen):
        for table, indexes in chosen.items():
            if batch[table]:
                names = [KNOWN[table][i] for i in indexes]
                data = "".join("\t".join(self.text(r[i]) for i in indexes) + "\n" for r in batch[table])
                # Rows reference only rows written before them: the per-row foreign-key triggers
                # can be skipped (a superuser's session setting; the bench's cluster trusts us).
                self.psql("SET session_replication_role = replica",
                          f"COPY {table} ({', '.join(names)}) FROM STDIN", stdin=data)

    def finish(self):
        self.psql("ANALYZE")


class ServerProbe:
    """What a server binary computes for a nickname and an address, read from the
    `pending_signups` rows its details-first sign-ups write into a throwaway SQLite database."""

    def __init__(self, server):
        self.server = server

    def pending(self, names):
        """name -> (username_skeleton, username_display_skeleton, email_key), one sign-up of each
        name (address `<name>@bench.test`) on a server started and stopped here."""
        work = tempfile.mkdtemp(prefix="seed-probe-")
        url = f"sqlite:{work}/probe.sqlite"
        os.makedirs(os.path.join(work, "mail"))
        proc = None
        try:
            subprocess.run([self.server, "migrate", "--database-url", url], capture_output=True, text=True, check=True)
            base = f"http://127.0.0.1:{free_port()}"
            with open(os.path.join(work, "server.log"), "w") as out:
                proc = subprocess.Popen([self.server, "serve", "--database-url", url, "--port", base.rsplit(":", 1)[1],
                                         "--mail", f"file://{work}/mail", "--ip-rate-limit", "0"], stdout=out, stderr=out)
            wait_http(base + "/healthz", 30)
            for name in names:
                request(base + "/auth/signup", {"username": name, "email": f"{name}@bench.test", "password": PASSWORD,
                                                "mbti": "INTJ"})
            stop_process(proc)
            db = sqlite3.connect(f"{work}/probe.sqlite")
            found = {row[0]: tuple(row[1:]) for row in db.execute(
                "SELECT username, username_skeleton, username_display_skeleton, email_key FROM pending_signups")}
            db.close()
        finally:
            stop_process(proc)
            shutil.rmtree(work, ignore_errors=True)
        missing = [n for n in names if n not in found]
        if missing:
            raise SkeletonsUnknown(f"{self.server} kept no pending sign-up of {', '.join(missing)}")
        return found


def learn_skeletons(server):
    """The per-character mapping of `server`'s nickname skeletons, from its sign-ups of PROBES.
    Raises SkeletonsUnknown unless each character maps to one character, the same in every probe,
    the seeded nicknames' skeletons stay distinct, and each email key is the address itself."""
    mapping = {}
    for name, (folded, displayed, email_key) in ServerProbe(server).pending(PROBES).items():
        if email_key != f"{name}@bench.test":
            raise SkeletonsUnknown(f"the email key of {name}@bench.test is {email_key!r}, not the address")
        if folded != displayed or folded is None or len(folded) != len(name):
            raise SkeletonsUnknown(f"the skeletons of {name} are {folded!r}/{displayed!r}, not character by character")
        for c, s in zip(name, folded):
            if mapping.setdefault(c, s) != s:
                raise SkeletonsUnknown(f"{c!r} has the skeleton {mapping[c]!r} in one probe and {s!r} in another")
    # `user<i>` differ in their digits only, so distinct digits keep their skeletons distinct.
    digits = [mapping[d] for d in "0123456789"]
    if len(set(digits)) != len(digits) or Skeletons(mapping).of(OPERATOR)[0].startswith(Skeletons(mapping).of("user")[0]):
        raise SkeletonsUnknown(f"the skeletons {mapping} would make seeded nicknames collide")
    return mapping


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("count", type=int)
    parser.add_argument("pool", type=int)
    parser.add_argument("phc")
    parser.add_argument("--tokens", help="file to write the pool's refresh tokens to, one a line")
    parser.add_argument("--server", required=True,
                        help="the account-server binary whose sign-ups show how it computes skeletons and email keys")
    args = parser.parse_args()
    url, count, pool, phc = args.url, args.count, args.pool, args.phc
    started = time.monotonic()
    if url.startswith("sqlite:"):
        target = SQLiteTarget(url[len("sqlite:"):])
    elif url.startswith(("postgres://", "postgresql://")):
        target = PostgresTarget(url)
    else:
        print(f"seed.py: unsupported database URL {url}", file=sys.stderr)
        return 2
    columns = target.columns()
    session_columns = {name for name, _ in columns.get("sessions", [])}
    holds_tokens = "settings" in columns and {"refresh_generation", "refresh_hash"} <= session_columns
    try:
        chosen = plan(columns, old_layout=not holds_tokens)
        mapping = learn_skeletons(args.server)
        keys = None
        if holds_tokens:
            # Writes a key only when there is none, so a sealed key (old layout) has written nothing.
            derivation = target.derivation_key()
            keys = RefreshKeys(derivation) if derivation is not None else None
        if keys is None:
            print("seed.py: refresh tokens in the layout from before (the schema or a sealed key)", file=sys.stderr)
            chosen = plan(columns, old_layout=True)
    except SchemaUnknown as e:
        print(f"seed.py: this schema is new to the seeder ({e}); nothing written", file=sys.stderr)
        return SCHEMA_UNKNOWN
    except (SkeletonsUnknown, OSError, subprocess.CalledProcessError) as e:
        print(f"seed.py: cannot learn how {args.server} computes skeletons ({e}); nothing written", file=sys.stderr)
        return 1
    pool_tokens = []
    for batch in rows(count, pool, phc, keys, Skeletons(mapping), pool_tokens):  # True is SQLite's 1 and COPY's t
        target.write(batch, chosen)
    target.finish()
    if args.tokens:
        with open(args.tokens, "w") as f:
            f.writelines(t + "\n" for t in pool_tokens)
    print(f"seeded {count} accounts, {count + pool} sessions in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
