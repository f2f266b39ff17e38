#!/usr/bin/env bash
# The whole suite: builds, starts a throwaway PostgreSQL cluster (as an unprivileged user), runs
# every test with it, and removes the cluster whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
out=$(scripts/pg-test-cluster.sh start)
url=$(sed -n 1p <<<"$out")
dir=$(sed -n 2p <<<"$out")
cleanup() {
    scripts/pg-test-cluster.sh stop "$dir" >/dev/null 2>&1 || true
    # Servers a test forgot to stop (or a crashed test process left behind) must not outlive the run.
    pkill -TERM -f "$PWD/.build/debug/account-server serve" 2>/dev/null || true
    pkill -KILL -f "$PWD/scripts/smtp-sink.py" 2>/dev/null || true
}
trap cleanup EXIT
if [ -z "$url" ]; then
    echo "test: the PostgreSQL test cluster did not start" >&2
    exit 1
fi
echo "test: PostgreSQL test cluster at $url"
ACCOUNT_TEST_POSTGRES_URL="$url" swift test --skip-build
