#!/usr/bin/env python3
"""The operators' console (`/admin`) in a real browser: Debian's Chromium, headless, driven by
Playwright for Python (from .build/test-venv, made by scripts/install-deps.sh --test; no browser is
downloaded: Playwright is pointed at /usr/bin/chromium).

One server binary (debug by default, `--release` for the release build) on a loopback port with a
temporary SQLite database, the SMTP sink for its mail and a clock file for authenticator steps;
one browser. Accounts are made over HTTP, an operator granted with `account-server admin grant`
and given an authenticator (codes computed here, RFC 6238), then the browser signs in with the
second factor and drives the dashboard, the search, an account and its actions, and the audit log;
then another operator signs in with a passkey alone, kept by Chromium's virtual authenticator
(CDP's WebAuthn domain), while every request, console message and CSP violation is recorded. Effects are checked over HTTP
against the app's own endpoints. Screenshots of the dashboard and the account page are taken at
desktop and phone widths and checked; `--screenshots docs/images` keeps them for docs/OPERATIONS.md.
"""
import argparse
import email
import email.policy
import hashlib
import hmac
import http.client
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import base64
from urllib.parse import urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PASSWORD = "Console-Passw0rd!"
HOST = "127.0.0.1"
# The page is opened at http://localhost:PORT: a secure context whose host is a domain, so it can
# be the passkeys' RP id (an IP address cannot be one). The server gets the same RP id and origin.
PAGE_HOST = "localhost"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
APP = "MBTI%20Playground/1.2 (iPhone15,2; iOS 17.4; build 42) AccountKit"
# The app's address as a load balancer (the loopback peer, a `--trusted-proxy`) forwards it: the
# session it opens keeps it, and the account page shows it.
APP_ADDRESS = "203.0.113.42"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

passed = []


def check(condition, what):
    """One assertion: counted when it holds, the run stops with `what` when it does not."""
    if not condition:
        raise AssertionError(what)
    passed.append(what)


def log(*parts):
    print("browser:", *parts, file=sys.stderr, flush=True)


# --- TOTP (RFC 6238, HMAC-SHA-1, 6 digits, 30 s), as an authenticator app computes it ---

def totp(secret_base32, at):
    secret = base64.b32decode(secret_base32.upper() + "=" * (-len(secret_base32) % 8))
    mac = hmac.new(secret, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = mac[19] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return "%06d" % (value % 1_000_000)


class Clock:
    """The server's `--clock-file`: seconds it runs ahead of real time, moved forward by hand."""

    def __init__(self, path):
        self.path, self.ahead = path, 0
        self._write()

    def _write(self):
        with open(self.path + ".tmp", "w") as f:
            f.write(str(self.ahead))
        os.replace(self.path + ".tmp", self.path)

    def now(self):
        return time.time() + self.ahead

    def next_step(self):
        """Moves the server 1 s into the next 30-second step (a code never used before); returns that time."""
        now = self.now()
        start = (int(now // 30) + 1) * 30
        self.ahead += int(start + 1 - now) + 1
        self._write()
        return self.now()


# --- The server, its mail and HTTP ---

def free_port():
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, tmp, binary):
        self.tmp, self.binary = tmp, binary
        self.db = os.path.join(tmp, "accounts.sqlite")
        self.maildir = os.path.join(tmp, "mail")
        os.makedirs(self.maildir)
        self.clock = Clock(os.path.join(tmp, "clock"))
        self.sink = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "scripts", "smtp-sink.py"), "--dir", self.maildir, "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.sink.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"smtp-sink.py did not start: {line!r}")
        smtp_port = int(line.split()[1])
        self.log_path = os.path.join(tmp, "server.log")
        self.stderr = open(self.log_path, "w")
        self.proc = None
        # The passkeys' origin names the port, so the port is chosen before the server starts: a
        # free one the kernel gives, tried again with another should someone take it meanwhile.
        for _ in range(5):
            self.port = self._start(binary, smtp_port, free_port())
            if self.port:
                break
        if self.port is None:
            self.stop()
            raise RuntimeError("account-server did not start; see " + self.log_path)
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        self.origin = f"http://{PAGE_HOST}:{self.port}"

    def _start(self, binary, smtp_port, port):
        """Starts the server on `port`; its port once it listens, or None when it exits first."""
        self.proc = subprocess.Popen(
            [binary, "serve", "--host", HOST, "--port", str(port), "--database-url", f"sqlite:{self.db}",
             "--mail", f"smtp://{HOST}:{smtp_port}", "--ip-rate-limit", "0", "--hash-memory", "64", "--hash-passes", "1",
             "--clock-file", self.clock.path, "--trusted-proxy", HOST,
             "--webauthn-rp-id", PAGE_HOST, "--webauthn-origin", f"http://{PAGE_HOST}:{port}"],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                return int(match.group(1))
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        return None

    def stop(self):
        for proc in (self.proc, self.sink):
            if proc and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)

    def request(self, method, path, body=None, token=None, headers=None):
        """One request; returns (status, headers as a lower-cased dict, raw body, parsed JSON or None)."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if token:
            sent["Authorization"] = "Bearer " + token
        try:
            connection.request(method, path, body=data, headers=sent)
            reply = connection.getresponse()
            raw = reply.read()
            reply_headers = {name.lower(): value for name, value in reply.getheaders()}
        finally:
            connection.close()
        parsed = None
        if raw and "json" in reply_headers.get("content-type", ""):
            parsed = json.loads(raw)
        return reply.status, reply_headers, raw, parsed

    def call(self, method, path, body=None, token=None, headers=None):
        status, _, _, parsed = self.request(method, path, body, token, headers)
        return status, parsed or {}

    def admin(self, *arguments):
        """`account-server admin …` on this server's database."""
        result = subprocess.run([self.binary, "admin", *arguments, "--database-url", f"sqlite:{self.db}"],
                                capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"admin {arguments}: {result.stdout}{result.stderr}")
        return result.stdout

    def code(self, address, seen):
        """The code of the newest message to `address` not in `seen` (message file names)."""
        deadline = time.time() + 20
        while time.time() < deadline:
            for name in sorted(os.listdir(self.maildir), reverse=True):
                if not name.endswith(".json") or name in seen:
                    continue
                with open(os.path.join(self.maildir, name)) as f:
                    envelope = json.load(f)
                if address not in envelope["rcpt_tos"]:
                    continue
                with open(os.path.join(self.maildir, name[:-5] + ".eml"), "rb") as f:
                    message = email.message_from_binary_file(f, policy=email.policy.default)
                text = message.get_body(preferencelist=("plain",)).get_content()
                runs = [run for run in re.findall(r"[0-9]+", text) if len(run) == 6]
                if len(runs) == 1:
                    seen.add(name)
                    return runs[0]
            time.sleep(0.05)
        raise RuntimeError(f"no code mailed to {address}")

    def account(self, name, mbti, seen, address=None):
        """Signs up, verifies by the mailed code; returns the account's login reply."""
        address = address or f"{name}@console.test"
        status, reply = self.call("POST", "/auth/signup", {"username": name, "email": address, "password": PASSWORD, "mbti": mbti})
        check(status == 202, f"sign-up of {name}: {status} {reply}")
        status, reply = self.call("POST", "/auth/email/verify", {"email": address, "code": self.code(address, seen)})
        check(status == 200, f"verification of {name}: {status} {reply}")
        return self.login(name)

    def login(self, name, password=PASSWORD):
        """A login from an app on a phone, as AccountKit names it (the session's device), through the
        load balancer (the session's address)."""
        return self.call("POST", "/auth/login", {"login": name, "password": password},
                         headers={"User-Agent": APP, "X-Forwarded-For": APP_ADDRESS})


# --- The page's files over HTTP ---

def wait_until(page, expression, arg=None, timeout=15):
    """Polls `expression` (a function of `arg`) from here until it is true. Playwright's own
    `wait_for_function` polls inside the page with `eval`, which the console's CSP refuses."""
    deadline = time.time() + timeout
    while not page.evaluate(expression, arg):
        if time.time() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def check_files(server):
    status, headers, raw, _ = server.request("GET", "/admin")
    html = raw.decode()
    check(status == 200 and headers.get("content-type") == "text/html; charset=utf-8", f"GET /admin is the page: {status} {headers}")
    check(headers.get("content-security-policy") == CSP, f"the page's CSP: {headers.get('content-security-policy')}")
    check(headers.get("x-content-type-options") == "nosniff" and headers.get("referrer-policy") == "no-referrer",
          "nosniff and no-referrer on the page")
    check(headers.get("x-frame-options") == "DENY", "the page is never framed")
    # Passkeys need `publickey-credentials-get` (allowed to the page's own origin by default): no
    # Permissions-Policy may take it away.
    permissions = headers.get("permissions-policy", "")
    check("publickey-credentials-get" not in permissions or "publickey-credentials-get=(self)" in permissions,
          f"no Permissions-Policy blocks passkeys: {permissions!r}")
    etag = headers.get("etag", "")
    check(re.fullmatch(r'"[0-9a-f]{32}"', etag) is not None and headers.get("cache-control") == "no-cache", f"ETag {etag!r}, revalidated")
    status, again, raw304, _ = server.request("GET", "/admin/", headers={"If-None-Match": etag})
    check(status == 304 and raw304 == b"" and again.get("etag") == etag, f"If-None-Match: 304 without a body ({status})")
    status, _, head_body, _ = server.request("HEAD", "/admin")
    check(status == 200 and head_body == b"", "HEAD /admin")
    check(not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) and " style=" not in html and "<style" not in html,
          "no inline script or style in the page")
    assets = re.findall(r'(?:src|href)="(/admin/assets/[^"]+)"', html)
    check(len(assets) >= 3, f"the page names its assets: {assets}")
    scripts = {}
    for path in set(assets):
        status, headers, raw, _ = server.request("GET", path)
        check(status == 200 and headers.get("content-security-policy") == CSP and headers.get("etag"), f"{path}: {status}")
        if path.endswith(".js"):
            scripts[path] = raw.decode()
    # Every module the entry imports is served too, as JavaScript.
    pending = list(scripts)
    while pending:
        for name in re.findall(r"from '\./([a-z0-9]+\.js)'", scripts[pending.pop()]):
            path = "/admin/assets/" + name
            if path in scripts:
                continue
            status, headers, raw, _ = server.request("GET", path)
            check(status == 200 and headers.get("content-type") == "text/javascript; charset=utf-8", f"{path}: {status}")
            scripts[path] = raw.decode()
            pending.append(path)
    check(len(scripts) >= 8, f"the console's modules: {sorted(scripts)}")
    for path, text in scripts.items():
        outside = [url for url in re.findall(r"https?://[^\s'\"`)]+", text) if url != "http://www.w3.org/2000/svg"]
        check(not outside, f"{path} names no other origin: {outside}")
        check("innerHTML" not in text and "localStorage" not in text and "document.cookie" not in text and "eval(" not in text,
              f"{path}: no innerHTML, storage, cookies or eval")
    # Both languages have every text, and every text a script asks for by a fixed key exists.
    words = scripts["/admin/assets/i18n.js"]
    english = set(re.findall(r"^    '([a-zA-Z0-9.\-_]+)':", words[words.index("  en: {"):words.index("  ko: {")], re.M))
    korean = set(re.findall(r"^    '([a-zA-Z0-9.\-_]+)':", words[words.index("  ko: {"):], re.M))
    check(len(english) > 100 and english == korean, f"English and Korean have the same texts: {sorted(english ^ korean)}")
    asked = {key for text in scripts.values() for key in re.findall(r"\bt\('([a-zA-Z0-9.\-_]+)'", text)}
    check(asked <= english, f"every text asked for exists: {sorted(asked - english)}")
    status, headers, _, problem = server.request("GET", "/admin/assets/nothing.js")
    check(status == 404 and headers.get("content-type") == "application/problem+json" and problem["code"] == "not_found",
          "an unknown asset is 404 problem+json")
    status, _, _, _ = server.request("GET", "/admin/assets/..%2Fconsole.html")
    check(status == 404, "no path tricks into the assets")


# --- The browser ---

# --- What the page must hold to the contract, and how it must fit ---

LONG_ADDRESS = "a.very.long.address@example-company.com"
IPHONE = {"viewport": PHONE, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
problems = []


def later(condition, what):
    """A check whose failure is gathered, so one run names every one that fails; `run` ends by
    requiring that none did."""
    if condition:
        passed.append(what)
    else:
        log("FAILS:", what)
        problems.append(what)


def check_words():
    """Every security-event type docs/API.md and the server's SecurityEventKind name, and every
    OperatorAction, has its words in both of i18n.js's tables (English and Korean)."""
    with open(os.path.join(ROOT, "docs", "API.md")) as f:
        api = f.read()
    listed = re.search(r"`type` is one of (.*?)more may be added", api, re.S)
    check(listed, "docs/API.md lists the security-event types")
    documented = set(re.findall(r"`([a-z_]+)`", listed.group(1)))

    def cases(path, enum):
        """The raw values of a Swift string enum's cases."""
        with open(os.path.join(ROOT, path)) as f:
            block = re.search(r"enum %s\b[^{]*\{(.*?)\n\}" % enum, f.read(), re.S)
        check(block, f"{path} declares {enum}")
        return {raw or case for case, raw in re.findall(r"case (\w+)(?: = \"(\w+)\")?", block.group(1))}

    kinds = cases("Sources/AccountAPI/SecurityEvents.swift", "SecurityEventKind")
    actions = cases("Sources/AccountCore/Operators/OperatorAction.swift", "OperatorAction")
    check(len(documented) >= 15 and "recovery_codes_replaced" in documented, f"the documented types: {sorted(documented)}")
    check(len(kinds) >= 15, f"SecurityEventKind: {sorted(kinds)}")
    check(len(actions) >= 8, f"OperatorAction: {sorted(actions)}")
    with open(os.path.join(ROOT, "Sources", "AccountServer", "Console", "i18n.js")) as f:
        script = f.read()
    english, korean = script.split("\n  ko: {", 1)
    english = english.split("\n  en: {", 1)[1]
    for language, table in (("en", english), ("ko", korean)):
        keys = set(re.findall(r"^    '([\w.-]+)':", table, re.M))
        for kind in sorted(documented | kinds):
            later(f"event.{kind}" in keys, f"the security event {kind} has words in {language}")
        for action in sorted(actions):
            later(f"audit.{action}" in keys, f"the audit action {action} has words in {language}")


# Everything the page shows inside the bounds of its card, and the page as wide as the viewport.
FITS = """(width) => {
    const out = [];
    const root = document.documentElement;
    // A phone's browser zooms out to show a page wider than its screen: then innerWidth grows too.
    if (root.scrollWidth !== width || window.innerWidth !== width) out.push(`the page is ${root.scrollWidth} wide (inner ${window.innerWidth}) in a ${width} viewport`);
    // Clipped to nothing (the column names of a table shown as cards): not on the screen.
    const unseen = (element, card) => {
        for (let a = element.parentElement; a && a !== card; a = a.parentElement) {
            if (getComputedStyle(a).overflow !== 'visible' && a.getBoundingClientRect().width <= 1) return true;
        }
        return false;
    };
    for (const card of document.querySelectorAll('.card, .tile')) {
        const box = card.getBoundingClientRect();
        const name = card.id || card.className;
        for (const scroller of card.querySelectorAll('.table-wrap')) {
            if (scroller.scrollWidth > scroller.clientWidth + 1) out.push(`${name}: a table ${scroller.scrollWidth} wide in ${scroller.clientWidth}`);
        }
        for (const element of card.querySelectorAll('*')) {
            if (element.closest('svg') && element.tagName !== 'svg') continue;
            if (element.closest('.visually-hidden, caption')) continue;
            const r = element.getBoundingClientRect();
            if (r.width <= 1 || r.height <= 1 || unseen(element, card)) continue;
            if (r.right > box.right + 0.5 || r.left < box.left - 0.5) {
                out.push(`${name}: <${element.tagName.toLowerCase()}> "${(element.textContent || '').trim().slice(0, 40)}" at ${Math.round(r.left)}..${Math.round(r.right)}, the card ${Math.round(box.left)}..${Math.round(box.right)}`);
                break;
            }
        }
    }
    return out;
}"""


def fits(page, where):
    """Nothing overflows its card on this screen, and the page does not scroll sideways."""
    page.wait_for_timeout(150)
    found = page.evaluate(FITS, page.viewport_size["width"])
    later(not found, f"{where} at {page.viewport_size['width']} px fits: {found}")


def sign_in(page, server, secret, name="opmina"):
    """The operator's password, then the authenticator's code, on a page at the sign-in."""
    page.wait_for_selector("#login-form")
    page.fill("#login-identifier", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#code-form")
    page.fill("#login-code", totp(secret, server.clock.next_step()))
    page.click("#code-submit")
    page.wait_for_selector("#nav:not([hidden])")


def every_screen(page, long_id, shots, suffix):
    """The dashboard, the accounts list, the long address's account and the audit log: each fits,
    each photographed."""
    for screen, hash_, ready in (("dashboard", "#/dashboard", "#hourly-logins"), ("accounts", "#/accounts", "#accounts-table"),
                                 ("account", f"#/accounts/{long_id}", "#profile"), ("audit", "#/audit", "#audit-table")):
        page.evaluate("(h) => { location.hash = h; }", hash_)
        page.wait_for_selector(ready)
        if screen == "account":
            later(LONG_ADDRESS in page.inner_text("#profile"), "the long address is on its account page")
        if screen == "accounts":
            later(LONG_ADDRESS in page.inner_text("#accounts-table"), "the long address is in the accounts list")
        fits(page, screen)
        page.screenshot(path=os.path.join(shots, f"fit-{screen}-{suffix}.png"), full_page=True)


def run(server, shots):
    from playwright.sync_api import sync_playwright

    origin = server.origin
    seen_mail = set()
    # The operator, with an authenticator; an operator without one; the account acted on; ten more.
    status, reply = server.account("opmina", "INTJ", seen_mail)
    check(status == 200, f"operator's login {status}")
    operator_access = reply["access"]
    status, enrolment = server.call("POST", "/auth/mfa/totp", {"password": PASSWORD}, operator_access)
    check(status == 200 and enrolment.get("secret"), f"enrolment {status} {enrolment}")
    secret = enrolment["secret"]
    status, confirmed = server.call("POST", "/auth/mfa/totp/confirm", {"code": totp(secret, server.clock.next_step())}, operator_access)
    check(status == 200 and len(confirmed.get("recovery_codes", [])) == 10, f"authenticator confirmed {status} {confirmed}")
    server.account("plainop", "ENFP", seen_mail)
    server.admin("grant", "opmina", "--reason", "on call", "--actor", "browser-test")
    server.admin("grant", "plainop", "--reason", "no second factor yet", "--actor", "browser-test")
    status, minsu = server.account("minsu", "ISFJ", seen_mail)
    check(status == 200, "minsu logs in")
    others = ["user%02d" % index for index in range(1, 11)]
    mbtis = "ISTJ ISFP INFJ INTP ESTP ESFJ ENTJ ENFJ ESTJ INFP".split()
    for name, mbti in zip(others, mbtis):
        server.account(name, mbti, seen_mail)
    accounts = 3 + len(others)
    # Two wrong passwords over HTTP (the browser adds a third).
    for _ in range(2):
        status, reply = server.login("user01", "Wrong-passw0rd!")
        check(status == 401 and reply.get("code") == "invalid_credentials", "a wrong password is refused")
    failed_logins = 3

    requests, console, page_errors, allowed_errors = [], [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox"] if os.geteuid() == 0 else [])
        context = browser.new_context(viewport=DESKTOP, locale="en-US", device_scale_factor=1, timezone_id="UTC")
        # Violations of the page's CSP, recorded by the browser itself (this script runs outside the policy).
        context.add_init_script("window.__violations = []; document.addEventListener('securitypolicyviolation', "
                                "(e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")
        page = context.new_page()
        page.set_default_timeout(15000)
        page.on("request", lambda request: requests.append(request.url))
        page.on("console", lambda message: console.append((message.type, message.text, message.location.get("url", ""))))
        page.on("pageerror", lambda error: page_errors.append(str(error)))

        def violations():
            return page.evaluate("window.__violations")

        def expect_error(url_part):
            """A 4xx the page asks for on purpose: Chromium logs it as a console error."""
            allowed_errors.append(url_part)

        page.goto(origin + "/admin")
        page.wait_for_selector("#login-form")
        check(page.evaluate("document.documentElement.lang") == "en", "English for an English browser")
        check(page.locator("#nav").is_hidden(), "no navigation before signing in")
        # Keyboard: the sign-in form has the focus, then its fields in order; before it, the
        # language switch and the skip link, which moves the focus to the screen's heading.
        focused = lambda: page.evaluate("document.activeElement.id")  # noqa: E731
        check(focused() == "login-identifier", f"the sign-in form takes the focus: {focused()}")
        order = []
        for _ in range(3):
            page.keyboard.press("Tab")
            order.append(focused())
        check(order == ["login-password", "login-submit", "passkey-submit"], f"focus order of the sign-in form: {order}")
        for _ in range(3):
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        check(focused() == "language", f"before the form, the language switch: {focused()}")
        page.keyboard.press("Shift+Tab")
        check(focused() == "skip-link" and page.locator("#skip-link").is_visible(), f"first of all, the skip link, shown: {focused()}")
        page.keyboard.press("Enter")
        check(page.evaluate("document.activeElement.classList.contains('screen-title')"), "the skip link moves the focus to the heading")
        check(page.evaluate("location.hash") == "", "and leaves the address alone")

        # A wrong password: the server's problem shown in words.
        expect_error("/auth/login")
        page.fill("#login-identifier", "opmina")
        page.fill("#login-password", "Not-the-passw0rd")
        page.click("#login-submit")
        page.wait_for_selector("#login-error")
        words = page.inner_text("#login-error")
        check("invalid_credentials" not in words and len(words) > 15, f"a refused login in words: {words!r}")
        # An operator without a second factor is told to turn one on, and the session is closed again.
        expect_error("/admin/api/audit")
        page.fill("#login-identifier", "plainop")
        page.fill("#login-password", PASSWORD)
        page.click("#login-submit")
        wait_until(page, "(before) => { const e = document.getElementById('login-error'); return e && e.innerText !== before; }", words)
        words = page.inner_text("#login-error")
        check("authenticator" in words and "app" in words, f"told to enrol a second factor: {words!r}")
        check(any(url.endswith("/auth/logout") for url in requests), "that password-only session was logged out")

        # The operator: password, then the authenticator's code.
        page.fill("#login-identifier", "opmina")
        page.fill("#login-password", PASSWORD)
        page.click("#login-submit")
        page.wait_for_selector("#code-form")
        check(page.get_attribute("#login-code", "autocomplete") == "one-time-code", "the code field is a one-time code")
        page.fill("#login-code", totp(secret, server.clock.next_step()))
        page.click("#code-submit")
        page.wait_for_selector("#nav:not([hidden])")
        check("opmina" in page.inner_text("#operator"), "signed in as the operator")

        # The dashboard: two windows, each a sign-up line and login bars, one mark per bucket.
        page.wait_for_selector("#hourly-logins")
        page.wait_for_selector("#daily-signups")
        # Servers may add their counts to the database a moment after the fact: refresh the
        # figures until the last failed login is in (at most 20 s), as an operator would.
        drawn = "() => [...document.querySelectorAll('#daily-logins rect.bar-failed')].reduce((n, r) => n + Number(r.dataset.value), 0)"
        deadline = time.time() + 20
        while page.evaluate(drawn) < failed_logins and time.time() < deadline:
            page.wait_for_timeout(500)
            page.click("#dashboard-reload")
            page.wait_for_selector("#daily-logins")
        for window, buckets in (("hourly", 24), ("daily", 30)):
            succeeded = page.locator(f"#{window}-logins rect.bar-succeeded").count()
            failed = page.locator(f"#{window}-logins rect.bar-failed").count()
            points = page.locator(f"#{window}-signups circle.point-signups").count()
            check(succeeded == failed == points == buckets, f"{window}: {succeeded} + {failed} bars, {points} points, not {buckets}")
            check(page.locator(f"#{window}-signups polyline.line-signups").count() == 1, f"{window}: the sign-up line")
            for chart in ("signups", "logins"):
                svg = f"#{window}-{chart}"
                check(page.get_attribute(svg, "role") == "img" and (page.locator(f"{svg} > title").text_content() or "").strip(),
                      f"{svg} has an accessible title")
                check(page.locator(f"{svg} text.x-tick").count() >= 2 and page.locator(f"{svg} text.y-tick").count() >= 2,
                      f"{svg} has labelled axes")
            values = page.eval_on_selector_all(f"#{window}-logins rect.bar-failed", "(rs) => rs.map((r) => Number(r.dataset.value))")
            check(sum(values) == failed_logins, f"{window}: {sum(values)} failed logins drawn, {failed_logins} made")
            heights = page.eval_on_selector_all(f"#{window}-logins rect.bar-failed", "(rs) => rs.map((r) => Number(r.getAttribute('height')))")
            check(max(heights) > 0, f"{window}: the failed logins are drawn ({heights})")
            signups = page.eval_on_selector_all(f"#{window}-signups circle.point-signups", "(cs) => cs.map((c) => Number(c.dataset.value))")
            check(sum(signups) == accounts, f"{window}: {sum(signups)} sign-ups drawn, {accounts} made")
        check(page.inner_text("#totals [data-key=failed]").strip() == str(failed_logins), "the failed-logins total")
        page.screenshot(path=os.path.join(shots, "console-dashboard.png"), full_page=True)
        page.set_viewport_size(PHONE)
        wait_until(page, "() => document.querySelector('#hourly-logins').getBoundingClientRect().width <= 390")
        page.screenshot(path=os.path.join(shots, "console-dashboard-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        check(violations() == [], f"no CSP violation on the dashboard: {violations()}")

        # The search: newest first, paged, filtered.
        page.click("#nav-accounts")
        page.wait_for_selector("#accounts-table")
        page.select_option("#search-limit", "10")
        page.click("#search-submit")
        page.wait_for_selector("#next-page")
        rows = page.locator("#accounts-table tbody tr")
        check(rows.count() == 10, f"a page of 10 rows: {rows.count()}")
        first_page = page.eval_on_selector_all("#accounts-table a.account-link", "(as) => as.map((a) => a.textContent)")
        page.click("#next-page")
        wait_until(page, "() => document.querySelectorAll('#accounts-table tbody tr').length === %d" % (accounts - 10))
        second_page = page.eval_on_selector_all("#accounts-table a.account-link", "(as) => as.map((a) => a.textContent)")
        check(set(first_page).isdisjoint(second_page) and len(set(first_page + second_page)) == accounts,
              f"the next page holds the rest: {first_page} / {second_page}")
        check(page.locator("#next-page").count() == 0, "no next page after the last")
        page.fill("#search-q", "MIN")
        page.click("#search-submit")
        wait_until(page, "() => document.querySelectorAll('#accounts-table tbody tr').length === 1")
        check("minsu" in page.inner_text("#accounts-table tbody"), "a nickname prefix, in any letter case")
        counted = page.inner_text("#results-count")
        later(counted == "1 account on this page", f"one account is one, not many: {counted!r}")
        page.fill("#search-q", "")
        page.select_option("#search-mfa", "true")
        page.click("#search-submit")
        # The table held one row already (minsu): wait for the one the filter names, not for a count.
        only = "() => { const a = document.querySelectorAll('#accounts-table a.account-link'); return a.length === 1 && a[0].textContent === %s }"
        wait_until(page, only % "'opmina'")
        check(page.inner_text("#accounts-table a.account-link") == "opmina", "the second-factor filter")
        page.select_option("#search-mfa", "")
        page.fill("#search-q", "minsu@")
        page.click("#search-submit")
        wait_until(page, only % "'minsu'")
        page.click("#accounts-table a.account-link")

        # The account page.
        page.wait_for_selector("#profile")
        check("minsu@console.test" in page.inner_text("#profile"), "the profile")
        check(page.locator("#sessions-table tbody tr").count() >= 1, "minsu's session is listed")
        check("iPhone15,2" in page.inner_text("#sessions-table"), "with the device it was opened on")
        check(APP_ADDRESS in page.inner_text("#sessions-table"), "and the address it was last used from")
        check(page.locator("#state-active").count() == 1, "minsu is active")
        page.screenshot(path=os.path.join(shots, "console-account.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        page.screenshot(path=os.path.join(shots, "console-account-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)

        # Disable: Escape closes the dialog and gives the focus back; Tab stays inside it; a reason is required.
        page.focus("#action-disable")
        page.keyboard.press("Enter")
        page.wait_for_selector("#dialog[open]")
        check(page.evaluate("document.activeElement.id") == "dialog-reason", "the dialog takes the focus")
        page.keyboard.press("Escape")
        page.wait_for_selector("#dialog", state="hidden")
        check(page.evaluate("document.activeElement.id") == "action-disable", "Escape closes it, the focus goes back")
        page.click("#action-disable")
        page.wait_for_selector("#dialog[open]")
        inside = []
        for _ in range(6):
            page.keyboard.press("Tab")
            inside.append(page.evaluate("Boolean(document.activeElement.closest('dialog'))"))
        check(all(inside), f"Tab stays inside the dialog: {inside}")
        page.click("#dialog-submit")
        check(page.locator("#dialog-error").is_visible() and page.locator("#dialog[open]").count() == 1, "no reason, no action")
        page.fill("#dialog-reason", "Abuse report 4411: spam")
        page.click("#dialog-submit")
        page.wait_for_selector("#state-disabled")
        status, reply = server.login("minsu")
        check(status == 403 and reply.get("code") == "account_disabled", f"minsu's login after disabling: {status} {reply.get('code')}")
        status, reply = server.call("POST", "/auth/refresh", {"refresh": minsu["refresh"]})
        check(status == 401, f"minsu's refresh token after disabling: {status} {reply.get('code')}")

        # Enable, then end the new session.
        page.click("#action-enable")
        page.fill("#dialog-reason", "Appeal accepted")
        page.click("#dialog-submit")
        page.wait_for_selector("#state-active")
        status, again = server.login("minsu")
        check(status == 200, f"minsu logs in again after enabling: {status}")
        page.click("#action-end-sessions")
        page.fill("#dialog-reason", "Lost phone")
        page.click("#dialog-submit")
        wait_until(page, "() => document.getElementById('status').textContent.includes('Ended')")
        status, reply = server.call("POST", "/auth/refresh", {"refresh": again["refresh"]})
        check(status == 401, f"the refresh token after ending sessions: {status} {reply.get('code')}")
        status, _ = server.call("GET", "/auth/me", token=again["access"])
        check(status == 401, f"the access token after ending sessions: {status}")

        # The audit log shows the three actions with their reasons, newest first; the toast of
        # the last action stays behind on the account's page.
        check(page.evaluate("document.getElementById('status').classList.contains('shown')"), "the toast says it")
        before_audit = len(requests)
        page.click("#nav-audit")
        page.wait_for_selector("#audit-table")
        later(not page.evaluate("document.getElementById('status').classList.contains('shown')")
              and page.inner_text("#status").strip() == "", "the toast goes when the operator leaves the page")
        actions = page.eval_on_selector_all("#audit-table [data-action]", "(es) => es.map((e) => e.dataset.action)")
        check(actions[:3] == ["sessions_ended", "account_enabled", "account_disabled"], f"the audit log: {actions}")
        text = page.inner_text("#audit-table")
        check(all(reason in text for reason in ("Abuse report 4411: spam", "Appeal accepted", "Lost phone")), "the reasons are in the log")
        # Operators and accounts by their nicknames, looked up once each.
        try:
            wait_until(page, "() => [...document.querySelectorAll('#audit-table a')].some((a) => a.textContent.includes('minsu'))", timeout=5)
        except Exception:  # noqa: BLE001 - said by the check below
            pass
        names = page.eval_on_selector_all("#audit-table tbody tr:first-child a", "(as) => as.map((a) => a.textContent)")
        later(any("opmina" in name for name in names) and any("minsu" in name for name in names),
              f"the audit log names the operator and the account: {names}")
        lookups = [url for url in requests[before_audit:] if re.search(r"/admin/api/users/[0-9a-f-]{36}$", url)]
        later(len(lookups) == len(set(lookups)) <= 2, f"each account looked up once at most: {lookups}")

        # A long address fits its card and the page at desktop and phone widths, on every screen.
        status, _ = server.account("longaddr", "ENTP", seen_mail, address=LONG_ADDRESS)
        check(status == 200, "the account with a long address")
        page.evaluate("() => { location.hash = '#/accounts'; }")
        page.wait_for_selector("#accounts-table")
        page.fill("#search-q", "")
        page.select_option("#search-limit", "25")
        page.click("#search-submit")
        wait_until(page, "(a) => document.getElementById('accounts-table')?.innerText.includes(a)", LONG_ADDRESS)
        long_id = page.evaluate("""(a) => [...document.querySelectorAll('#accounts-table tbody tr')]
            .find((r) => r.innerText.includes(a)).querySelector('a.account-link').getAttribute('href').split('/').pop()""", LONG_ADDRESS)
        every_screen(page, long_id, shots, "desktop")
        phone_context = browser.new_context(locale="en-US", timezone_id="UTC", **IPHONE)
        phone = phone_context.new_page()
        phone.set_default_timeout(15000)
        phone.on("pageerror", lambda error: page_errors.append(str(error)))
        phone.goto(origin + "/admin")
        sign_in(phone, server, secret)
        every_screen(phone, long_id, shots, "phone")
        # Korean on the phone: lines break between words, ids and addresses anywhere.
        phone.click("#language")
        phone.wait_for_selector("#audit-table")
        styles = phone.evaluate("""() => ({ text: getComputedStyle(document.querySelector('#audit-table td')).wordBreak,
            id: getComputedStyle(document.querySelector('#audit-table code')).overflowWrap })""")
        later(styles["text"] == "keep-all", f"Korean breaks between words: {styles}")
        later(styles["id"] == "anywhere", f"an id breaks anywhere: {styles}")
        fits(phone, "audit in Korean")
        phone.screenshot(path=os.path.join(shots, "fit-audit-phone-ko.png"), full_page=True)
        phone.evaluate("(h) => { location.hash = h; }", f"#/accounts/{long_id}")
        phone.wait_for_selector("#profile")
        fits(phone, "account in Korean")
        phone.screenshot(path=os.path.join(shots, "fit-account-phone-ko.png"), full_page=True)
        phone_context.close()

        # A deletion leaves the account's page for the search, and its toast goes along.
        page.evaluate("(h) => { location.hash = h; }", f"#/accounts/{long_id}")
        page.wait_for_selector("#action-delete")
        page.click("#action-delete")
        page.fill("#dialog-reason", "Asked to be forgotten")
        page.check("#dialog-confirm")
        page.click("#dialog-submit")
        wait_until(page, "() => location.hash === '#/accounts' && Boolean(document.getElementById('accounts-table'))")
        page.wait_for_timeout(300)
        said = page.inner_text("#status")
        later("longaddr" in said and "deleted" in said and page.evaluate("document.getElementById('status').classList.contains('shown')"),
              f"the deletion's toast stays on the search it moves to: {said!r}")
        page.evaluate("() => { location.hash = '#/audit'; }")
        page.wait_for_selector("#audit-table")
        later(page.inner_text("#audit-table tbody tr:first-child td:nth-child(4)") == "longaddr",
              "a deleted account keeps the nickname the page knew")
        # A page that never knew it (after a reload, the audit log comes first) does not ask for
        # it: the log itself says it was deleted (the console errors below would show a 404).

        # Korean, by the switch.
        page.click("#language")
        page.wait_for_selector("#audit-table")
        check(page.evaluate("document.documentElement.lang") == "ko" and page.inner_text("#nav-audit") == "감사 기록", "the switch to Korean")
        check("사유" in page.inner_text("#audit-table thead"), "the table in Korean")
        page.click("#language")
        check(page.inner_text("#nav-audit") == "Audit log", "and back to English")

        check(page.evaluate("localStorage.length + sessionStorage.length") == 0 and page.evaluate("document.cookie") == "",
              "nothing kept in storage or cookies")
        check(violations() == [], f"no CSP violation: {violations()}")
        # Tokens live in the page's memory only: a reload means signing in again.
        page.reload()
        page.wait_for_selector("#login-form")
        check(page.locator("#nav").is_hidden(), "a reload signs out")
        check(violations() == [], f"no CSP violation after the reload: {violations()}")

        passkey_sign_in(server, page, context, expect_error, violations, secret)
        browser.close()

    foreign = [url for url in requests if urlsplit(url).netloc != f"{PAGE_HOST}:{server.port}"]
    check(not foreign, f"every request stays on the console's origin: {foreign}")
    check(len(requests) > 20, f"requests recorded: {len(requests)}")
    unexpected = [(kind, text, url) for kind, text, url in console
                  if kind == "error" and not (text.startswith("Failed to load resource: the server responded with a status of 4")
                                              and any(part in url for part in allowed_errors))]
    check(not unexpected, f"no console error: {unexpected}")
    check(not page_errors, f"no uncaught error in the page: {page_errors}")
    check(not problems, f"{len(problems)} checks failed: {problems}")


REGISTER_PASSKEY = """async ([token, name, proof]) => {
        const w = await import('/admin/assets/webauthn.js');
        const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token };
        const options = await (await fetch('/auth/passkeys/register/options', { method: 'POST', headers })).json();
        const publicKey = {
            ...options, challenge: w.fromBase64url(options.challenge),
            user: { ...options.user, id: w.fromBase64url(options.user.id) },
            excludeCredentials: options.excludeCredentials.map((c) => ({ ...c, id: w.fromBase64url(c.id) })),
        };
        delete publicKey.hints;
        const credential = await navigator.credentials.create({ publicKey });
        const body = { ...proof, name, credential: {
            id: credential.id, rawId: w.toBase64url(credential.rawId), type: credential.type,
            response: { clientDataJSON: w.toBase64url(credential.response.clientDataJSON),
                        attestationObject: w.toBase64url(credential.response.attestationObject) } } };
        const reply = await fetch('/auth/passkeys/register', { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: reply.status, passkey: await reply.json() };
    }"""


PASSKEY_PROOF = """async (token) => {
        const w = await import('/admin/assets/webauthn.js');
        const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token };
        const options = await (await fetch('/auth/passkeys/reauth/options', { method: 'POST', headers })).json();
        const publicKey = {
            ...options, challenge: w.fromBase64url(options.challenge),
            allowCredentials: options.allowCredentials.map((c) => ({ ...c, id: w.fromBase64url(c.id) })),
        };
        delete publicKey.hints;
        const credential = await navigator.credentials.get({ publicKey });
        const r = credential.response;
        return { passkey_assertion: {
            id: credential.id, rawId: w.toBase64url(credential.rawId), type: credential.type,
            response: { clientDataJSON: w.toBase64url(r.clientDataJSON), authenticatorData: w.toBase64url(r.authenticatorData),
                        signature: w.toBase64url(r.signature), userHandle: r.userHandle ? w.toBase64url(r.userHandle) : null } } };
    }"""


def register_passkey(page, token, name, proof):
    """A passkey for the account behind `token` with the step-up `proof`, made by the browser on
    the console's page (the app's registration endpoints, the console's own base64url code);
    returns the reply."""
    return page.evaluate(REGISTER_PASSKEY, [token, name, proof])


def passkey_proof(page, token):
    """The step-up proof of a passkey the browser's authenticator holds for the session of
    `token`: an assertion for a reauthentication challenge, as `passkey_assertion`."""
    return page.evaluate(PASSKEY_PROOF, token)


def passkey_sign_in(server, page, context, expect_error, violations, secret):
    """An operator whose second factor is a passkey (plainop: no authenticator app) signs in with
    it alone, kept by Chromium's virtual authenticator (CTAP2, built in, resident keys, user
    verification), and reaches the dashboard and the search; a closed prompt is no error; a
    passkey the server no longer knows is refused in words; an operator with an authenticator app
    takes the passkey from the code screen; the console at the IP address says what is wrong."""
    # The console's own base64url code against Python's, on every length of padding and on the
    # bytes that make `-` and `_`; malformed text is refused.
    samples = [bytes(range(n)) for n in range(0, 8)] + [b"\xfb\xff\xbf" * 5, os.urandom(65), os.urandom(1000)]
    texts = [base64.urlsafe_b64encode(sample).decode().rstrip("=") for sample in samples]
    converted = page.evaluate("""async (texts) => {
        const w = await import('/admin/assets/webauthn.js');
        const refused = (text) => { try { w.fromBase64url(text); return false; } catch (e) { return e instanceof TypeError; } };
        return { there: texts.map((t) => w.toBase64url(w.fromBase64url(t))),
                 view: w.toBase64url(new Uint8Array([0, 251, 255, 191]).subarray(1, 3)),
                 refused: ['a', 'ab+c', 'ab/c', 'abc$', 'a===', 'ab c'].map(refused) };
    }""", texts)
    check(converted["there"] == texts, "base64url to bytes and back, as Python writes it")
    check(converted["view"] == base64.urlsafe_b64encode(b"\xfb\xff").decode().rstrip("="), "a view into a buffer is encoded alone")
    check(all(converted["refused"]), f"malformed base64url is refused: {converted['refused']}")
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]
    focused = lambda: page.evaluate("document.activeElement.id")  # noqa: E731

    # No passkey on this device yet: the browser's prompt ends without one. Not an error: the form
    # is back with a quiet word (Korean here), and the focus on the passkey button to try again.
    page.click("#language")
    page.wait_for_selector("#passkey-submit")
    check(page.inner_text("#passkey-submit") == "패스키로 로그인", "the passkey button in Korean")
    page.click("#passkey-submit")
    page.wait_for_selector("#login-note")
    check("패스키" in page.inner_text("#login-note"), f"a closed prompt said in Korean: {page.inner_text('#login-note')!r}")
    check(page.locator("#login-error").count() == 0 and page.locator("#main [role=alert]").count() == 0, "a closed prompt is no error")
    check(focused() == "passkey-submit", f"the focus is back on the passkey button: {focused()}")
    check(page.locator("#nav").is_hidden(), "and nobody is signed in")
    page.click("#language")
    page.wait_for_selector("#passkey-submit")
    check(page.inner_text("#passkey-submit") == "Sign in with a passkey", "the passkey button in English")

    # The operator adds a passkey as the app would (its registration endpoints, with a session
    # of its password), made by the browser on this page with the console's own base64url code.
    status, pair = server.login("plainop")
    check(status == 200, f"plainop's password login {status}")
    made = register_passkey(page, pair["access"], "Operator laptop", {"password": PASSWORD})
    check(made["status"] == 201 and made["passkey"].get("name") == "Operator laptop", f"the passkey is registered: {made}")
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    check(len(held) == 1 and held[0]["isResidentCredential"] and held[0]["rpId"] == PAGE_HOST,
          f"the virtual authenticator holds one discoverable passkey for {PAGE_HOST}: {held}")
    server.call("POST", "/auth/logout", token=pair["access"])

    # Its password alone still cannot open the console; the page points to the passkey.
    expect_error("/admin/api/audit")
    page.fill("#login-identifier", "plainop")
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    wait_until(page, "() => { const e = document.getElementById('login-error'); return e && e.innerText.includes('has a passkey'); }")
    check(focused() == "passkey-submit", f"the focus on the passkey button: {focused()}")

    # The passkey alone, from the keyboard: the dashboard, then the search.
    before = len(held)
    page.keyboard.press("Enter")
    page.wait_for_selector("#nav:not([hidden])")
    check("plainop" in page.inner_text("#operator"), "signed in with the passkey as plainop")
    page.click("#nav-dashboard")
    page.wait_for_selector("#hourly-logins")
    check(page.locator("#hourly-logins rect.bar-succeeded").count() == 24, "the dashboard draws for the passkey's session")
    used = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    check(len(used) == before and used[0]["signCount"] >= 1, f"the authenticator signed: {used}")
    page.click("#nav-accounts")
    page.wait_for_selector("#accounts-table")
    page.fill("#search-q", "minsu")
    page.click("#search-submit")
    wait_until(page, "() => { const a = document.querySelectorAll('#accounts-table a.account-link'); return a.length === 1 && a[0].textContent === 'minsu' }")
    check(page.inner_text("#accounts-table a.account-link") == "minsu", "the search works in the passkey's session")
    page.click("#sign-out")
    page.wait_for_selector("#login-form")

    # The passkey removed from the account (the password alone does not do it while the account
    # holds a passkey and no authenticator app; the passkey's assertion does), still on the
    # device: the server refuses it, and the page says so in words.
    status, pair = server.login("plainop")
    status, listed = server.call("GET", "/auth/passkeys", token=pair["access"])
    check(status == 200 and len(listed["passkeys"]) == 1, f"plainop's passkeys: {listed}")
    path = "/auth/passkeys/" + listed["passkeys"][0]["id"]
    status, refused = server.call("DELETE", path, {"password": PASSWORD}, pair["access"])
    check(status == 422 and "passkey_assertion" in refused.get("errors", {}), f"the password alone removes no passkey: {status} {refused}")
    status, _ = server.call("DELETE", path, passkey_proof(page, pair["access"]), pair["access"])
    check(status == 204, f"the passkey is removed from the account: {status}")
    server.call("POST", "/auth/logout", token=pair["access"])
    expect_error("/auth/passkeys/login")
    page.click("#passkey-submit")
    page.wait_for_selector("#login-error")
    words = page.inner_text("#login-error")
    check("passkey_invalid" not in words and len(words) > 15 and page.locator("#nav").is_hidden(), f"an unknown passkey refused in words: {words!r}")
    page.click("#language")
    page.click("#passkey-submit")
    wait_until(page, "(before) => { const e = document.getElementById('login-error'); return e && e.innerText !== before; }", words)
    korean = page.inner_text("#login-error")
    check(re.search(r"[가-힣]", korean) is not None, f"and in Korean: {korean!r}")
    page.click("#language")

    # An operator with both an authenticator app and a passkey who typed the password: the code
    # screen offers the passkey too, which signs in without the code.
    cdp.send("WebAuthn.clearCredentials", {"authenticatorId": authenticator})
    status, challenge = server.login("opmina")
    check(status == 403 and challenge.get("code") == "mfa_required", f"opmina's password: {status} {challenge.get('code')}")
    status, pair = server.call("POST", "/auth/mfa/verify", {"mfa_token": challenge["mfa_token"], "code": totp(secret, server.clock.next_step())})
    check(status == 200, f"opmina's second factor {status}")
    made = register_passkey(page, pair["access"], "Desk key", {"password": PASSWORD, "code": totp(secret, server.clock.next_step())})
    check(made["status"] == 201, f"opmina's passkey is registered: {made}")
    server.call("POST", "/auth/logout", token=pair["access"])
    page.fill("#login-identifier", "opmina")
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#code-form")
    check(page.locator("#code-passkey").is_visible(), "the code screen offers the passkey")
    page.click("#code-passkey")
    page.wait_for_selector("#nav:not([hidden])")
    check("opmina" in page.inner_text("#operator"), "signed in with opmina's passkey, no code")
    page.click("#sign-out")
    page.wait_for_selector("#login-form")
    check(violations() == [], f"no CSP violation around the passkeys: {violations()}")
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator})

    # The console opened at the server's IP address instead (in a page of its own, outside the
    # origin checks above): an IP address is not the RP id, so the browser refuses before any
    # prompt, and the page names the address it was opened at.
    elsewhere = context.new_page()
    elsewhere.goto(f"http://{HOST}:{server.port}/admin")
    elsewhere.click("#passkey-submit")
    elsewhere.wait_for_selector("#login-error")
    words = elsewhere.inner_text("#login-error")
    check(f"http://{HOST}:{server.port}" in words and "--webauthn-origin" in words, f"the wrong address said in words: {words!r}")
    elsewhere.close()


def check_screenshots(folder):
    """Each screenshot is a PNG as wide as the viewport it was taken in."""
    for name, width in (("console-dashboard.png", DESKTOP["width"]), ("console-dashboard-phone.png", PHONE["width"]),
                        ("console-account.png", DESKTOP["width"]), ("console-account-phone.png", PHONE["width"])):
        with open(os.path.join(folder, name), "rb") as f:
            head = f.read(24)
        check(head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", head[16:20])[0] == width, f"{name} is a {width} px wide PNG")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", action="store_true", help="test .build/release/account-server (default: debug)")
    parser.add_argument("--screenshots", metavar="DIR", help="keep the screenshots in DIR (docs/images for docs/OPERATIONS.md); "
                        "by default they are taken, checked and thrown away with the run's folder")
    arguments = parser.parse_args()
    binary = os.path.join(ROOT, ".build", "release" if arguments.release else "debug", "account-server")
    if not os.access(binary, os.X_OK):
        sys.exit(f"browser: {binary} is missing; build it first")
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"browser: no Chromium at {CHROMIUM} (scripts/install-deps.sh --test installs Debian's chromium)")
    started = time.time()
    tmp = tempfile.mkdtemp(prefix="console-browser-")
    server = None
    try:
        server = Server(tmp, binary)
        check_files(server)
        check_words()
        shots = arguments.screenshots or os.path.join(tmp, "screenshots")
        os.makedirs(shots, exist_ok=True)
        run(server, shots)
        check_screenshots(shots)
    except Exception as error:  # noqa: BLE001 - the report names any failure
        log(f"FAILED after {len(passed)} checks: {error}")
        if server:
            with open(server.log_path) as f:
                tail = f.read()[-3000:]
            log("server log tail:\n" + tail)
        return 1
    finally:
        if server:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    log(f"{len(passed)} checks passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
