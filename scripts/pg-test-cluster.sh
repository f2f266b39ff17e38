#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: its own data folder, a free port on 127.0.0.1, trust
# authentication, one database `account_test`. PostgreSQL refuses to run as root, so as root the
# server runs as the `postgres` user.
#
#   pg-test-cluster.sh start [URL_FILE]  creates and starts a cluster; prints two lines, the URL
#                                        (postgres://postgres@127.0.0.1:PORT/account_test) and the
#                                        cluster folder; also writes the URL to URL_FILE if given
#   pg-test-cluster.sh down DIR          stops the server, keeps the cluster (for outage tests)
#   pg-test-cluster.sh up DIR            starts it again on the same port
#   pg-test-cluster.sh stop DIR          stops the server and removes the cluster
#
# With PG_TEST_CLUSTER_REGISTRY set to a file, `start` appends each new cluster folder to it, so
# whoever set it (scripts/test.sh) can stop clusters that a crashed test process never stopped.
set -euo pipefail

# The server this script starts lives on after it: it must not inherit the caller's other open
# files. A test process's pipes held open by a PostgreSQL daemon never reach end of file, and the
# test waits forever for a child that has long exited.
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "pg-test-cluster: initdb not found; install the postgresql package" >&2
            exit 1
        fi
        # Debian's package also creates a default cluster; this script never uses it.
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
        dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    echo "$dir"
}

# Runs a command as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
        return
    fi
    local port
    for port in $(seq 54329 54429); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "pg-test-cluster: no free port in 54329..54429" >&2
    exit 1
}

server_start() {
    local dir=$1 bin
    bin=$(bindir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $(cat "$dir/port") -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
}

server_stop() {
    local dir=$1 bin
    bin=$(bindir)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
    fi
}

start() {
    local bin dir port url
    bin=$(bindir)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/pg-test.XXXXXX")
    if [ -n "${PG_TEST_CLUSTER_REGISTRY:-}" ]; then echo "$dir" >>"$PG_TEST_CLUSTER_REGISTRY"; fi
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
    # Fewer fsyncs: the cluster holds nothing worth keeping past a crash.
    as_owner tee -a "$dir/data/postgresql.conf" >/dev/null <<'EOF'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 500
EOF
    port=$(free_port)
    echo "$port" | as_owner tee "$dir/port" >/dev/null
    server_start "$dir"
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres account_test
    url="postgres://postgres@127.0.0.1:$port/account_test"
    if [ $# -ge 1 ]; then echo "$url" >"$1"; fi
    echo "$url"
    echo "$dir"
}

need_dir() {
    if [ $# -lt 1 ] || [ ! -f "$1/port" ]; then
        echo "pg-test-cluster: '${1:-}' is not a cluster folder made by 'start'" >&2
        exit 2
    fi
}

case "${1:-}" in
    start) shift; start "$@" ;;
    down) shift; need_dir "$@"; server_stop "$1" ;;
    up) shift; need_dir "$@"; server_start "$1" ;;
    stop) shift; need_dir "$@"; server_stop "$1"; rm -rf "$1" ;;
    *) echo "usage: $0 start [URL_FILE] | down DIR | up DIR | stop DIR" >&2; exit 2 ;;
esac
