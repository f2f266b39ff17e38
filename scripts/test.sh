#!/usr/bin/env bash
# The whole suite: builds, starts a throwaway PostgreSQL cluster (as an unprivileged user), runs
# every test with it, and removes the cluster whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
# Every cluster started during the run, the suite's and tests' own, is listed here and stopped at
# the end, even those of a test process that crashed before it could stop them.
PG_TEST_CLUSTER_REGISTRY=$(mktemp "${TMPDIR:-/tmp}/pg-test-registry.XXXXXX")
export PG_TEST_CLUSTER_REGISTRY
cleanup() {
    while read -r cluster; do
        if [ -d "$cluster" ]; then scripts/pg-test-cluster.sh stop "$cluster" >/dev/null 2>&1 || true; fi
    done <"$PG_TEST_CLUSTER_REGISTRY"
    rm -f "$PG_TEST_CLUSTER_REGISTRY"
    # Servers a test forgot to stop (or a crashed test process left behind) must not outlive the run.
    pkill -TERM -f "$PWD/.build/debug/account-server serve" 2>/dev/null || true
    pkill -KILL -f "$PWD/scripts/smtp-sink.py" 2>/dev/null || true
}
trap cleanup EXIT
out=$(scripts/pg-test-cluster.sh start)
url=$(sed -n 1p <<<"$out")
if [ -z "$url" ]; then
    echo "test: the PostgreSQL test cluster did not start" >&2
    exit 1
fi
echo "test: PostgreSQL test cluster at $url"
ACCOUNT_TEST_POSTGRES_URL="$url" swift test --skip-build
