#!/usr/bin/env python3
"""Seeds a migrated account database with N accounts, one session each, and a pool of sessions
whose refresh tokens the bench knows.

Rows are written straight into SQLite with the schema of
Sources/AccountStoreSQLite/Migrations.swift (run `account-server migrate` first, and again after,
to fill the nickname skeletons and email keys that SQL cannot compute), in large
transactions, so a million accounts take a minute or two rather than the weeks a million Argon2
hashes would: every account gets the SAME password hash (one real Argon2id PHC string passed in),
so every seeded account has the same password.

    seed.py DB N POOL PHC

- users `user<i>` / `user<i>@bench.test` (i = 0..N-1), verified, password hash PHC;
- session i of user i with refresh token `seed-<i>` (the server stores SHA-256 of the token text);
- POOL more sessions, pool session j owned by user j % N, with refresh token `pool-<j>`.
"""
import hashlib
import sqlite3
import sys
import time
import uuid

MBTI = ["INTJ", "INTP", "ENTJ", "ENTP", "INFJ", "INFP", "ENFJ", "ENFP",
        "ISTJ", "ISFJ", "ESTJ", "ESFJ", "ISTP", "ISFP", "ESTP", "ESFP"]
BATCH = 50_000
DAY_MS = 86_400_000


def main():
    path, count, pool, phc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    started = time.monotonic()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-200000")
    now = int(time.time() * 1000)
    user_ids = []
    for start in range(0, count, BATCH):
        users, sessions, tokens = [], [], []
        for i in range(start, min(count, start + BATCH)):
            uid, sid = str(uuid.uuid4()), str(uuid.uuid4())
            user_ids.append(uid)
            name = f"user{i}"
            users.append((uid, name, name, f"{name}@bench.test", f"{name}@bench.test", phc, MBTI[i % 16], 1, now, now))
            sessions.append((sid, uid, now, now, now + 90 * DAY_MS, "seed", None))
            tokens.append((hashlib.sha256(f"seed-{i}".encode()).digest(), sid, now, None))
        insert(db, users, sessions, tokens)
    for start in range(0, pool, BATCH):
        sessions, tokens = [], []
        for j in range(start, min(pool, start + BATCH)):
            sid = str(uuid.uuid4())
            sessions.append((sid, user_ids[j % count], now, now, now + 90 * DAY_MS, "pool", None))
            tokens.append((hashlib.sha256(f"pool-{j}".encode()).digest(), sid, now, None))
        insert(db, [], sessions, tokens)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"seeded {count} accounts, {count + pool} sessions in {time.monotonic() - started:.1f} s", file=sys.stderr)


def insert(db, users, sessions, tokens):
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", users)
    db.executemany(
        "INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)", sessions)
    db.executemany("INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at) VALUES (?, ?, ?, ?)", tokens)
    db.execute("COMMIT")


if __name__ == "__main__":
    main()
