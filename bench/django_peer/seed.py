"""Seeds the peer's migrated SQLite database, the way bench/seed.py seeds the account server's.

    PEER_DB=FILE python seed.py N PASSWORD TOKENS_PER_FILE FILES OUT_PREFIX

Run with the peer's virtual environment after `manage.py migrate`. Users `user<i>` /
`user<i>@bench.test` (i = 0..N-1), verified, are written straight into the table in large
transactions, every one with the SAME Django password hash (one real PBKDF2 hash of PASSWORD:
a million of them at ~0.25 s each would take three days). Then FILES files
OUT_PREFIX<k>.txt of TOKENS_PER_FILE SimpleJWT refresh tokens each, minted as a login mints them
(recorded as outstanding), for users spread over the table.
"""
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "peer.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.db import transaction  # noqa: E402
from rest_framework_simplejwt.tokens import RefreshToken  # noqa: E402

from accounts.models import User  # noqa: E402

MBTI = ["INTJ", "INTP", "ENTJ", "ENTP", "INFJ", "INFP", "ENFJ", "ENFP",
        "ISTJ", "ISFJ", "ESTJ", "ESFJ", "ISTP", "ISFP", "ESTP", "ESFP"]
BATCH = 50_000


def main():
    count, password, per_file, files, prefix = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    started = time.monotonic()
    phc = make_password(password)
    db = sqlite3.connect(settings.DATABASES["default"]["NAME"], isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    joined = "2026-01-01 00:00:00"
    for start in range(0, count, BATCH):
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO accounts_user (id, password, last_login, is_superuser, username, first_name, last_name,"
            " email, is_staff, is_active, date_joined, mbti, email_verified, email_code_hash)"
            " VALUES (?, ?, NULL, 0, ?, '', '', ?, 0, 1, ?, ?, 1, '')",
            ((i + 1, phc, f"user{i}", f"user{i}@bench.test", joined, MBTI[i % 16])
             for i in range(start, min(count, start + BATCH))))
        db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    n = 0
    with transaction.atomic():
        for k in range(files):
            with open(f"{prefix}{k}.txt", "w") as out:
                for _ in range(per_file):
                    out.write(str(RefreshToken.for_user(User(id=n % count + 1))) + "\n")
                    n += 1
    print(f"seeded the peer with {count} accounts and {n} refresh tokens in {time.monotonic() - started:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
