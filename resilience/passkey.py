"""WebAuthn responses made in Python, for the schemathesis hooks and the WebAuthn fuzzer: an EdDSA
credential with attestation `none` (which signs nothing, so no private key is needed) on the
server's default origin (the issuer's, http://localhost:8000)."""
import base64
import hashlib
import json
import os
import struct

ORIGIN = "http://localhost:8000"


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def client_data(kind, challenge):
    return json.dumps({"type": kind, "challenge": challenge, "origin": ORIGIN, "crossOrigin": False},
                      separators=(",", ":")).encode()


def registration_parts(options):
    """(credential id, clientDataJSON, attestationObject) for `PasskeyCreationOptions`."""
    credential_id = os.urandom(32)
    key = bytes([0xA4, 0x01, 0x01, 0x03, 0x27, 0x20, 0x06, 0x21, 0x58, 0x20]) + os.urandom(32)  # {1:1, 3:-8, -1:6, -2:x}
    data = (hashlib.sha256(options["rp"]["id"].encode()).digest() + bytes([0x5D]) + bytes(4) + bytes(16)
            + struct.pack(">H", len(credential_id)) + credential_id + key)
    attestation = (bytes([0xA3, 0x63]) + b"fmt" + bytes([0x64]) + b"none" + bytes([0x67]) + b"attStmt" + bytes([0xA0])
                   + bytes([0x68]) + b"authData" + bytes([0x58, len(data)]) + data)  # 129 bytes: a 1-byte length
    return credential_id, client_data("webauthn.create", options["challenge"]), attestation


def registration(credential_id, client, attestation):
    """A `RegistrationResponseJSON`."""
    return {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client), "attestationObject": b64url(attestation)}}


def assertion(credential_id, client, data, signature):
    """An `AuthenticationResponseJSON`."""
    return {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client), "authenticatorData": b64url(data), "signature": b64url(signature)}}


def assertion_data(rp_id, count):
    """Authenticator data of an assertion: UP, UV, BE and BS set."""
    return hashlib.sha256(rp_id.encode()).digest() + bytes([0x1D]) + struct.pack(">I", count)
