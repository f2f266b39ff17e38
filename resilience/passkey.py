"""WebAuthn responses made in Python, for the schemathesis hooks and the WebAuthn fuzzer: an EdDSA
credential with attestation `none` (which signs nothing, so no private key is needed) on the
server's default origin (the issuer's, http://localhost:8000); and, for checks that must sign in
or prove a change with a passkey, an `Authenticator` whose ES256 key openssl makes and signs with."""
import base64
import hashlib
import json
import os
import struct
import subprocess

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
    return credential_id, client_data("webauthn.create", options["challenge"]), attestation_none(options["rp"]["id"], credential_id, key)


def attestation_none(rp_id, credential_id, cose_key):
    """An attestation object of format `none` for `cose_key` (UP, UV, BE, BS and AT set, counter 0)."""
    data = (hashlib.sha256(rp_id.encode()).digest() + bytes([0x5D]) + bytes(4) + bytes(16)
            + struct.pack(">H", len(credential_id)) + credential_id + cose_key)
    # authData is 129 bytes for EdDSA, 164 for ES256: a 1-byte length either way.
    return (bytes([0xA3, 0x63]) + b"fmt" + bytes([0x64]) + b"none" + bytes([0x67]) + b"attStmt" + bytes([0xA0])
            + bytes([0x68]) + b"authData" + bytes([0x58, len(data)]) + data)


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


class Authenticator:
    """A synced passkey (backup eligible, counter always 0) whose P-256 key is made by openssl in
    `directory` and signs there, so its registration and its assertions verify like a device's."""

    def __init__(self, directory):
        self.credential_id = os.urandom(32)
        self.key = os.path.join(directory, f"passkey-{b64url(self.credential_id)}.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", self.key],
                       check=True, capture_output=True)
        public = subprocess.run(["openssl", "pkey", "-in", self.key, "-pubout", "-outform", "DER"],
                                check=True, capture_output=True).stdout
        point = public[-65:]  # the uncompressed point 04 || x || y ends the SubjectPublicKeyInfo
        # {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
        self.cose_key = (bytes([0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]) + point[1:33]
                         + bytes([0x22, 0x58, 0x20]) + point[33:65])

    def registration(self, options):
        """A `RegistrationResponseJSON` of this passkey for `PasskeyCreationOptions`."""
        client = client_data("webauthn.create", options["challenge"])
        return registration(self.credential_id, client, attestation_none(options["rp"]["id"], self.credential_id, self.cose_key))

    def assertion(self, options, credential_id=None):
        """An `AuthenticationResponseJSON` signed by this passkey for request options (`challenge`
        and `rpId`); under another `credential_id` when given (a forgery of that passkey)."""
        client = client_data("webauthn.get", options["challenge"])
        data = assertion_data(options["rpId"], 0)
        signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.key], input=data + hashlib.sha256(client).digest(),
                                   check=True, capture_output=True).stdout  # DER, as WebAuthn's ES256 wants
        return assertion(credential_id or self.credential_id, client, data, signature)
