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
# One test process per test target, one after another (tests inside a target still run in
# parallel). All targets in one process held over 1,400 open files at the peak (sockets of
# servers, pools and clients), and Foundation's Process.run() crashes when a process launching
# a child holds that many.
targets=$(swift test --skip-build --list-tests 2>/dev/null | sed -n 's/^\([A-Za-z0-9_]*\)\..*/\1/p' | sort -u)
if [ -z "$targets" ]; then
    echo "test: no tests listed" >&2
    exit 1
fi
failed=""
for target in $targets; do
    echo "test: $target"
    if ! ACCOUNT_TEST_POSTGRES_URL="$url" swift test --skip-build --filter "^$target\\."; then
        failed="$failed $target"
    fi
done
# The operators' console in headless Chromium (Playwright from scripts/install-deps.sh --test).
echo "test: browser"
if ! .build/test-venv/bin/python browser/console_test.py; then
    failed="$failed browser"
fi
if [ -n "$failed" ]; then
    echo "test: FAILED:$failed" >&2
    exit 1
fi
echo "test: every target passed:" $targets browser
