#!/usr/bin/env bash
# Installs the system libraries the package links (and, with --test, what the tests need),
# only when something is missing. Debian/Ubuntu through apt-get, macOS through Homebrew.
set -euo pipefail

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

missing=()
for module in libmicrohttpd libsodium sqlite3; do
    pkg-config --exists "$module" 2>/dev/null || missing+=("$module")
done
command -v pkg-config >/dev/null 2>&1 || missing+=("pkg-config")

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "install-deps: missing ${missing[*]}; installing" >&2

if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends \
        pkg-config libmicrohttpd-dev libsodium-dev libsqlite3-dev >/dev/null
elif command -v brew >/dev/null 2>&1; then
    brew install pkg-config libmicrohttpd libsodium sqlite
else
    echo "install-deps: install pkg-config, libmicrohttpd, libsodium and sqlite3 development files by hand" >&2
    exit 1
fi
