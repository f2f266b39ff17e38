#!/usr/bin/env python3
"""Seeds a migrated account database with N accounts, one session each, and a pool of sessions
whose refresh tokens the bench knows.

    seed.py DATABASE_URL N POOL PHC

DATABASE_URL is the server's own: `sqlite:PATH` or `postgres://user@host:port/db` (run
`account-server migrate` on it first). Rows are written straight into the tables (SQLite: large
transactions; PostgreSQL: `COPY` through psql), so a million accounts take a minute or two rather
than the weeks a million Argon2 hashes would: every account gets the SAME password hash (one real
Argon2id PHC string passed in), so every seeded account has the same password.

- users `user<i>` / `user<i>@bench.test` (i = 0..N-1), verified, password hash PHC, created one a
  second up to now (user N-1 the newest), so the operators' search pages through distinct times;
- `benchop` / `benchop@bench.test`, the same password: the operator the admin search figure signs
  in as (the logins pick among `user<i>` only);
- session i of user i with refresh token `seed-<i>` (the server stores SHA-256 of the token text);
- POOL more sessions, pool session j owned by user j % N, with refresh token `pool-<j>`.

The seeder writes the columns it knows and that the schema has; columns a newer schema added are
left to their defaults. When the schema lacks a table the seeder needs, or has a NOT NULL column
without a default that the seeder has no value for, it changes nothing and exits with status 3
(run.py then seeds with an older binary's schema and lets the newer binary migrate a copy, or
says that this file needs teaching).
"""
import hashlib
import random
import sqlite3
import subprocess
import sys
import time
import uuid

MBTI = ["INTJ", "INTP", "ENTJ", "ENTP", "INFJ", "INFP", "ENFJ", "ENFP",
        "ISTJ", "ISFJ", "ESTJ", "ESFJ", "ISTP", "ISFP", "ESTP", "ESFP"]
BATCH = 50_000
DAY_MS = 86_400_000
SCHEMA_UNKNOWN = 3

# The columns this seeder writes, in the order the row tuples below hold them.
KNOWN = {
    "users": ["id", "username", "username_key", "email", "email_key", "password_hash", "mbti",
              "email_verified", "created_at", "updated_at"],
    "sessions": ["id", "user_id", "created_at", "last_used_at", "expires_at", "user_agent", "revoked_at"],
    "refresh_tokens": ["hash", "session_id", "issued_at", "used_at"],
}


class SchemaUnknown(Exception):
    pass


def ordered_ids(now):
    """UUIDs in the layout of version 7 (a millisecond prefix, then random bits) whose prefix counts
    up, so each B-tree keyed by an id fills at its right edge: on PostgreSQL a million accounts take
    seconds instead of minutes of random page writes. The server looks ids up at random either way."""
    n = now << 12  # the millisecond, then a 12-bit counter in rand_a that carries into it
    while True:
        n += 1
        yield str(uuid.UUID(int=(n >> 12) << 80 | 0x7 << 76 | (n & 0xFFF) << 64 | 0b10 << 62 | random.getrandbits(62)))


def rows(count, pool, phc):
    """Yields batches (table -> rows): users with their sessions and tokens, then the pool."""
    now = int(time.time() * 1000)
    expires = now + 90 * DAY_MS
    ids = ordered_ids(now)
    user_ids = []
    for start in range(0, count, BATCH):
        users, sessions, tokens = [], [], []
        for i in range(start, min(count, start + BATCH)):
            uid, sid = next(ids), next(ids)
            user_ids.append(uid)
            name = f"user{i}"
            created = now - (count - i) * 1000
            users.append((uid, name, name, f"{name}@bench.test", f"{name}@bench.test", phc, MBTI[i % 16], True, created, created))
            sessions.append((sid, uid, now, now, expires, "seed", None))
            tokens.append((hashlib.sha256(f"seed-{i}".encode()).digest(), sid, now, None))
        yield {"users": users, "sessions": sessions, "refresh_tokens": tokens}
    operator = "benchop"
    yield {"users": [(next(ids), operator, operator, f"{operator}@bench.test", f"{operator}@bench.test", phc, "INTJ", True,
                      now, now)], "sessions": [], "refresh_tokens": []}
    for start in range(0, pool, BATCH):
        sessions, tokens = [], []
        for j in range(start, min(pool, start + BATCH)):
            sid = next(ids)
            sessions.append((sid, user_ids[j % count], now, now, expires, "pool", None))
            tokens.append((hashlib.sha256(f"pool-{j}".encode()).digest(), sid, now, None))
        yield {"users": [], "sessions": sessions, "refresh_tokens": tokens}


def plan(columns):
    """`columns`: table -> [(name, required)] where required means NOT NULL without a default.
    Returns table -> indexes into the KNOWN row tuples of the columns to write."""
    chosen = {}
    for table, known in KNOWN.items():
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
        for table in KNOWN:
            info = self.db.execute(f"PRAGMA table_info({table})").fetchall()
            if info:
                # (cid, name, type, notnull, default, pk); an INTEGER PRIMARY KEY is the rowid.
                found[table] = [(c[1], bool(c[3]) and c[4] is None and not (c[5] and c[2].upper() == "INTEGER"))
                                for c in info]
        return found

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
                        " AND table_name IN ('users', 'sessions', 'refresh_tokens') ORDER BY table_name, ordinal_position")
        for line in out.splitlines():
            table, name, nullable, has_default = line.split("|")
            found.setdefault(table, []).append((name, nullable == "NO" and has_default == "f"))
        return found

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


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    url, count, pool, phc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    started = time.monotonic()
    if url.startswith("sqlite:"):
        target = SQLiteTarget(url[len("sqlite:"):])
    elif url.startswith(("postgres://", "postgresql://")):
        target = PostgresTarget(url)
    else:
        print(f"seed.py: unsupported database URL {url}", file=sys.stderr)
        return 2
    try:
        chosen = plan(target.columns())
    except SchemaUnknown as e:
        print(f"seed.py: this schema is new to the seeder ({e}); nothing written", file=sys.stderr)
        return SCHEMA_UNKNOWN
    for batch in rows(count, pool, phc):  # Python's True is SQLite's 1 and COPY's t
        target.write(batch, chosen)
    target.finish()
    print(f"seeded {count} accounts, {count + pool} sessions in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
