#!/usr/bin/env bash
# Installs the system libraries the package links (and, with --test, what the tests need),
# only when something is missing. Debian/Ubuntu through apt-get, macOS through Homebrew.
set -euo pipefail

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

missing=()
for module in libsodium sqlite3 libcurl libpq icu-i18n libcrypto libqrencode; do
    pkg-config --exists "$module" 2>/dev/null || missing+=("$module")
done
command -v pkg-config >/dev/null 2>&1 || missing+=("pkg-config")
if [ $want_test -eq 1 ]; then
    # The SMTP tests run a real SMTP server (aiosmtpd) under the system Python, with TLS from openssl.
    /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || missing+=("python3-aiosmtpd")
    command -v openssl >/dev/null 2>&1 || missing+=("openssl")
    command -v script >/dev/null 2>&1 || missing+=("util-linux")
    # The terminal client's QR code is compared with libqrencode's own tool and read back by ZBar's.
    command -v qrencode >/dev/null 2>&1 || missing+=("qrencode")
    command -v zbarimg >/dev/null 2>&1 || missing+=("zbar-tools")
    # The read model's tests write the database as an operator would, with the sqlite3 program.
    command -v sqlite3 >/dev/null 2>&1 || missing+=("sqlite3")
    [ -x /usr/lib/postgresql/15/bin/initdb ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=("postgresql")
    # The console's browser tests drive Debian's Chromium headless, with Playwright for Python in a
    # virtual environment (below).
    command -v chromium >/dev/null 2>&1 || missing+=("chromium")
    # A Korean font, so the console's Korean words show in the browser and its screenshots.
    fc-list :lang=ko 2>/dev/null | grep -q . || missing+=("fonts-nanum")
    /usr/bin/python3 -c 'import ensurepip' 2>/dev/null || missing+=("python3-venv")
fi

# Playwright for Python from PyPI into the tests' virtual environment, .build/test-venv. No browser
# is downloaded: the tests point Playwright at /usr/bin/chromium.
test_venv() {
    local venv
    venv="$(cd "$(dirname "$0")/.." && pwd)/.build/test-venv"
    "$venv/bin/python" -c 'import playwright' 2>/dev/null && return 0
    echo "install-deps: Playwright for Python into $venv" >&2
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check 'playwright>=1.40,<2'
}

if [ ${#missing[@]} -eq 0 ]; then
    [ $want_test -eq 0 ] || test_venv
    exit 0
fi
echo "install-deps: missing ${missing[*]}; installing" >&2

if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    packages=(pkg-config libsodium-dev libsqlite3-dev libcurl4-openssl-dev libpq-dev libicu-dev libssl-dev libqrencode-dev)
    [ $want_test -eq 1 ] && packages+=(python3 python3-aiosmtpd openssl util-linux postgresql qrencode zbar-tools sqlite3 chromium fonts-dejavu-core fonts-nanum python3-venv)
    $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
elif command -v brew >/dev/null 2>&1; then
    brew install pkg-config libsodium sqlite curl libpq icu4c openssl@3 qrencode
    # icu4c and openssl@3 are keg-only: SwiftPM finds their .pc files only through PKG_CONFIG_PATH.
    echo "install-deps: export PKG_CONFIG_PATH=\"$(brew --prefix icu4c)/lib/pkgconfig:$(brew --prefix openssl@3)/lib/pkgconfig:\$PKG_CONFIG_PATH\" before swift build" >&2
else
    echo "install-deps: install pkg-config and the development files of libsodium, sqlite3, libcurl, libpq, ICU (icu-i18n), OpenSSL (libcrypto) and libqrencode by hand" >&2
    exit 1
fi
[ $want_test -eq 0 ] || test_venv
