"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS): a live token for every authenticated case.

A generated logout, password change or account deletion ends the session it was sent with, so
one shared token soon answers only 401. Here every case of an operation with a `security`
requirement gets its own throwaway account: signed up, logged in twice (the second session is
a real target for `DELETE /auth/sessions/{id}`). Every other such case of `deleteMe`,
`changePassword` and `revokeSession` gets the real password or session id put into its generated
body or path, so the success path is reached too; so do the second-factor operations, whose
account is first enrolled (and confirmed) with codes computed here (RFC 6238), and the passkey
operations, with a credential made here (attestation `none`); the rest stay as generated. Every reply is
appended to the JSON-lines file named by RESILIENCE_ST_LOG for the coverage report.

Environment: RESILIENCE_ST_BASE (the server's base URL), RESILIENCE_ST_LOG.
"""
import base64
import hashlib
import hmac
import itertools
import json
import tempfile
import os
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import schemathesis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import passkey  # noqa: E402  (resilience/passkey.py, beside this file)

BASE = os.environ["RESILIENCE_ST_BASE"]
LOG = os.environ["RESILIENCE_ST_LOG"]
PASSWORD = "Resil-Passw0rd!"
_counter = itertools.count()
_repairs = {}  # operationId: authenticated cases so far
_lock = threading.Lock()


def _call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            raw = reply.read()
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"{method} {path}: {e.code} {e.read()[:200]!r}") from None
    return json.loads(raw) if raw else None


def _totp(secret_b32, offset_steps=0):
    """The authenticator code of the current 30-second step plus `offset_steps` (RFC 6238, SHA-1)."""
    secret = base64.b32decode(secret_b32 + "=" * (-len(secret_b32) % 8))
    mac = hmac.new(secret, struct.pack(">Q", int(time.time()) // 30 + offset_steps), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def _second_factor(token, confirm=True):
    """Enrols the account of `token` (and confirms it with the previous step's code, so the current
    step's is still unused); the secret and the recovery codes."""
    secret = _call("POST", "/auth/mfa/totp", {"password": PASSWORD}, token)["secret"]
    if not confirm:
        return secret, []
    codes = _call("POST", "/auth/mfa/totp/confirm", {"code": _totp(secret, -1)}, token)["recovery_codes"]
    return secret, codes


def _passkey_registration(token):
    """A `RegistrationResponseJSON` for new options of the account of `token` (see passkey.py)."""
    return passkey.registration(*passkey.registration_parts(_call("POST", "/auth/passkeys/register/options", token=token)))


PROOF_MEMBERS = ("password", "current_password", "passkey_assertion", "apple_identity_token", "apple_nonce", "code", "recovery_code")


def _password_proof(body, field="password"):
    """`body` with the step-up proof of a fresh account (no passkey, no second factor) alone: the
    password, every other generated proof member taken out."""
    for member in PROOF_MEMBERS:
        body.pop(member, None)
    body[field] = PASSWORD


def _add_passkey(token, name):
    """A passkey that really signs (passkey.Authenticator), registered to the passkey-less account
    of `token` with its password as the step-up proof."""
    key = passkey.Authenticator(tempfile.mkdtemp(prefix="schemahooks-"))
    options = _call("POST", "/auth/passkeys/register/options", token=token)
    _call("POST", "/auth/passkeys/register", {"name": name, "password": PASSWORD, "credential": key.registration(options)}, token)
    return key


def _passkey_proof(key, token):
    """An assertion by `key` for a reauthentication challenge of the session of `token`."""
    return key.assertion(_call("POST", "/auth/passkeys/reauth/options", token=token))


def _authenticated(operation):
    return bool(operation.definition.raw.get("security"))


_operator = {}  # the operator's access token, account id and when the token was made


def _operator_token():
    """An operator's access token for the `/admin/api/...` operations: an account with the second
    factor on, given the admin role by `account-server admin grant` on the server's database, logged
    in with its code (so `amr` names `otp`). One per process, renewed every 10 minutes. A generated
    case may name the operator's own account (its id is in the listings the fuzzer reads), and
    ending its sessions or disabling it would spoil the token for every later case: such a case is
    pointed at a fresh account instead (``FreshAccount.set``)."""
    with _lock:
        if _operator and time.time() - _operator["made"] < 600:
            return _operator["access"]
        name = f"op{os.getpid()}x{next(_counter)}"
        _call("POST", "/auth/signup",
              {"username": name, "email": f"{name}@resil.test", "password": PASSWORD, "mbti": "ENTJ"})
        first = _call("POST", "/auth/login", {"username": name, "password": PASSWORD})
        secret, _ = _second_factor(first["access"])
        subprocess.run([os.environ["RESILIENCE_ST_SERVER"], "admin", "grant", name, "--reason", "resilience run",
                        "--database-url", os.environ["RESILIENCE_ST_DATABASE_URL"]], check=True, capture_output=True)
        request = urllib.request.Request(BASE + "/auth/login", data=json.dumps({"username": name, "password": PASSWORD}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        try:
            urllib.request.urlopen(request, timeout=10)
            raise RuntimeError("an account with a second factor logged in with its password alone")
        except urllib.error.HTTPError as e:
            challenge = json.loads(e.read())
        signed_in = _call("POST", "/auth/mfa/verify", {"mfa_token": challenge["mfa_token"], "code": _totp(secret)})
        _operator.update(access=signed_in["access"], user_id=signed_in["user"]["id"], made=time.time())
        return signed_in["access"]


def _target_account(path):
    """A fresh account for an operator's case on `/admin/api/users/{id}...`: unverified (so a
    verification can be resent), with the second factor on when the case removes it."""
    name = f"tg{os.getpid()}x{next(_counter)}"
    _call("POST", "/auth/signup", {"username": name, "email": f"{name}@resil.test", "password": PASSWORD, "mbti": "INTJ"})
    login = _call("POST", "/auth/login", {"username": name, "password": PASSWORD})
    if path.endswith("/remove-second-factor"):
        _second_factor(login["access"])
    return login["user"]["id"]


@schemathesis.auth(refresh_interval=None)
class FreshAccount:
    """A new account and session per authenticated case, so no case can spoil another's token."""

    def get(self, case, context):
        if not _authenticated(context.operation):
            return None
        op = context.operation.definition.raw.get("operationId") or context.operation.path
        if context.operation.path.startswith("/admin/api/"):
            with _lock:
                repair = _repairs.get(op, 0) % 2 == 0
                _repairs[op] = _repairs.get(op, 0) + 1
            target = _target_account(context.operation.path) if repair and "{id}" in context.operation.path else None
            return {"access": _operator_token(), "other_session": None, "repair": repair, "target": target}
        n = next(_counter)
        name = f"st{os.getpid()}x{n}"
        _call("POST", "/auth/signup",
              {"username": name, "email": f"{name}@resil.test", "password": PASSWORD, "mbti": "INTJ"})
        login = {"username": name, "password": PASSWORD}
        _call("POST", "/auth/login", login)  # the other session, for revokeSession
        mine = _call("POST", "/auth/login", login)
        sessions = _call("GET", "/auth/sessions", token=mine["access"])
        listed = sessions.get("sessions", []) if isinstance(sessions, dict) else []
        other_id = next((s["id"] for s in listed if not s.get("current")), None)
        # Every other case of each operation is repaired (counted per operation, so neither the
        # order two workers interleave operations in nor the number of operations can leave one
        # operation without a repaired case, which would make its "never 2xx" a flake).
        with _lock:
            repair = _repairs.get(op, 0) % 2 == 0
            _repairs[op] = _repairs.get(op, 0) + 1
        return {"access": mine["access"], "other_session": other_id, "repair": repair}

    def set(self, case, data, context):
        case.headers = dict(case.headers or {})
        case.headers["Authorization"] = "Bearer " + data["access"]
        if (context.operation.path.startswith("/admin/api/") and isinstance(case.path_parameters, dict)
                and str(case.path_parameters.get("id", "")).lower() == str(_operator.get("user_id", "")).lower()):
            # Never the operator's own account: the token every admin case uses would end with it.
            case.path_parameters["id"] = _target_account(context.operation.path)
        if not data["repair"]:
            return
        if data.get("target") and isinstance(case.path_parameters, dict):
            # An operator's action on a real account, with the reason every action needs.
            case.path_parameters["id"] = data["target"]
            if isinstance(case.body, dict):
                case.body["reason"] = "resilience run"
            return
        op = context.operation.definition.raw.get("operationId")
        if op == "revokeSession" and data["other_session"] and isinstance(case.path_parameters, dict):
            case.path_parameters["id"] = data["other_session"]
        elif op == "deleteMe" and isinstance(case.body, dict):
            _password_proof(case.body)
        elif op == "changePassword" and isinstance(case.body, dict):
            _password_proof(case.body, "current_password")
        elif op == "enrollTOTP" and isinstance(case.body, dict):
            _password_proof(case.body)
        elif op == "confirmTOTP" and isinstance(case.body, dict):
            secret, _ = _second_factor(data["access"], confirm=False)
            case.body["code"] = _totp(secret)
        elif op == "replaceRecoveryCodes" and isinstance(case.body, dict):
            secret, _ = _second_factor(data["access"])
            case.body.pop("recovery_code", None)  # both factors at once is a 400 by design
            case.body.update({"password": PASSWORD, "code": _totp(secret)})
        elif op == "registerPasskey" and isinstance(case.body, dict):
            # A fresh account holds no passkey: its password is the step-up proof.
            _password_proof(case.body)
            case.body.update({"name": "resilience key", "credential": _passkey_registration(data["access"])})
        elif op == "deletePasskey" and isinstance(case.path_parameters, dict):
            key = _add_passkey(data["access"], "to delete")
            case.path_parameters["id"] = _call("GET", "/auth/passkeys", token=data["access"])["passkeys"][0]["id"]
            if isinstance(case.body, dict):
                # An account holding a passkey proves with it: an assertion of the one just added.
                for member in PROOF_MEMBERS:
                    case.body.pop(member, None)
                case.body["passkey_assertion"] = _passkey_proof(key, data["access"])
        elif op == "passkeyReauthenticationOptions":
            # Options list the account's passkeys: without one the answer is 404 by design.
            _add_passkey(data["access"], "for a proof")
        elif op == "disableTOTP" and isinstance(case.body, dict):
            _, codes = _second_factor(data["access"])
            case.body.pop("code", None)
            case.body.update({"password": PASSWORD, "recovery_code": codes[0]})


@schemathesis.hook
def after_call(context, case, response):
    raw = case.operation.definition.raw
    row = {"method": case.operation.method.upper(), "path": case.operation.path,
           "authenticated": bool(raw.get("security")), "status": response.status_code}
    with _lock, open(LOG, "a") as f:
        f.write(json.dumps(row) + "\n")
