import AccountAPI
import CBOR
import Foundation
import LibCrypto
import Sodium

/// A passkey authenticator in software, with the client's part (client data, base64url), for tests
/// of the server's WebAuthn checks: it makes a credential and signs assertions as a platform
/// authenticator would, and each knob of ``Ceremony`` breaks one rule on purpose.
///
/// ```swift
/// var passkey = SoftwareAuthenticator(algorithm: .es256, userHandle: userID)
/// let made = passkey.register(challenge: challenge, Ceremony(rpID: "example.com", origin: "https://example.com"))
/// let signed = passkey.assert(challenge: next, Ceremony(rpID: "example.com", origin: "https://example.com"))
/// ```
public struct SoftwareAuthenticator: Sendable {
    public enum Algorithm: Sendable, CaseIterable {
        case es256, eddsa, rs256
    }

    /// What the client and authenticator say about one ceremony; the defaults are a good one.
    public struct Ceremony: Sendable {
        /// The RP id the authenticator hashes into its data.
        public var rpID: String
        /// The origin the client writes into the client data.
        public var origin: String
        /// The client data's `type` instead of the right one.
        public var type: String?
        public var crossOrigin: Bool?
        public var userPresent = true
        public var userVerified = true
        public var backupEligible = true
        public var backedUp = true

        public init(rpID: String, origin: String) {
            self.rpID = rpID
            self.origin = origin
        }
    }

    /// How registration's attestation is made.
    public enum Attestation: Sendable {
        case none
        /// `packed` signed by the new credential itself.
        case packedSelf
    }

    /// What `navigator.credentials.create()` gives, raw.
    public struct Registration: Sendable {
        public let rawID: [UInt8]
        public let clientDataJSON: [UInt8]
        public let attestationObject: [UInt8]
        /// The authenticator data inside the attestation object.
        public let authenticatorData: [UInt8]

        /// The WebAuthn L3 `RegistrationResponseJSON`.
        public var json: [String: Any] {
            [
                "id": Base64URL.encode(rawID), "rawId": Base64URL.encode(rawID), "type": "public-key",
                "response": [
                    "clientDataJSON": Base64URL.encode(clientDataJSON), "attestationObject": Base64URL.encode(attestationObject),
                    "transports": ["internal", "hybrid"],
                ] as [String: Any],
                "clientExtensionResults": [String: Any](), "authenticatorAttachment": "platform",
            ]
        }
    }

    /// What `navigator.credentials.get()` gives, raw.
    public struct Assertion: Sendable {
        public let rawID: [UInt8]
        public let clientDataJSON: [UInt8]
        public let authenticatorData: [UInt8]
        public let signature: [UInt8]
        public let userHandle: [UInt8]

        /// The WebAuthn L3 `AuthenticationResponseJSON`.
        public var json: [String: Any] {
            [
                "id": Base64URL.encode(rawID), "rawId": Base64URL.encode(rawID), "type": "public-key",
                "response": [
                    "clientDataJSON": Base64URL.encode(clientDataJSON), "authenticatorData": Base64URL.encode(authenticatorData),
                    "signature": Base64URL.encode(signature), "userHandle": Base64URL.encode(userHandle),
                ],
                "clientExtensionResults": [String: Any](), "authenticatorAttachment": "platform",
            ]
        }
    }

    private enum Key: Sendable {
        case p256(P256SigningKey)
        case ed25519(Ed25519SigningKey)
        case rsa(RSASigningKey)
    }

    public let algorithm: Algorithm
    public let credentialID: [UInt8]
    public let userHandle: [UInt8]
    /// The counter the next assertion carries (after it is increased, unless it stays 0).
    public var signCount: UInt32
    /// Whether the counter is increased for each signature (synced passkeys keep it at 0).
    public var counts: Bool
    private let key: Key

    /// A new credential of `algorithm` for the account `userHandle` names.
    public init(algorithm: Algorithm = .es256, userHandle: [UInt8], counts: Bool = true) {
        self.algorithm = algorithm
        self.userHandle = userHandle
        self.counts = counts
        self.signCount = 0
        self.credentialID = SecureRandom.bytes(count: 32)
        switch algorithm {
        case .es256: key = .p256(.generate())
        case .eddsa: key = .ed25519(.generate())
        case .rs256: key = .rsa(.generate())
        }
    }

    /// The credential's COSE_Key.
    public var coseKey: [UInt8] {
        switch key {
        case .p256(let key):
            CBOREncoder.encode(.map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(key.x), .int(-3): .bytes(key.y)]))
        case .ed25519(let key):
            CBOREncoder.encode(.map([.int(1): .int(1), .int(3): .int(-8), .int(-1): .int(6), .int(-2): .bytes(key.publicKey)]))
        case .rsa(let key):
            CBOREncoder.encode(.map([.int(1): .int(3), .int(3): .int(-257), .int(-1): .bytes(key.modulus), .int(-2): .bytes(key.exponent)]))
        }
    }

    /// The COSE algorithm number.
    public var coseAlgorithm: Int {
        switch algorithm {
        case .es256: -7
        case .eddsa: -8
        case .rs256: -257
        }
    }

    /// Signs `message` with the credential's key.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        switch key {
        case .p256(let key): key.sign(message)
        case .ed25519(let key): key.sign(message)
        case .rsa(let key): key.sign(message)
        }
    }

    /// Makes the credential for `challenge`: client data, authenticator data with the credential
    /// and its key, and the attestation object.
    public func register(challenge: [UInt8], _ ceremony: Ceremony, attestation: Attestation = .none) -> Registration {
        let clientData = Self.clientData(type: ceremony.type ?? "webauthn.create", challenge: challenge, ceremony)
        let credential = [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey
        let data = authenticatorData(ceremony, count: signCount, flags: 0x40) + credential
        let statement: CBOR
        switch attestation {
        case .none: statement = .map([:])
        case .packedSelf:
            statement = .map([.text("alg"): .int(coseAlgorithm), .text("sig"): .bytes(sign(data + Digest.sha256(clientData)))])
        }
        let object = CBOREncoder.encode(.map([
            .text("fmt"): .text(attestation == .packedSelf ? "packed" : "none"), .text("attStmt"): statement, .text("authData"): .bytes(data),
        ]))
        return Registration(rawID: credentialID, clientDataJSON: clientData, attestationObject: object, authenticatorData: data)
    }

    /// Signs an assertion for `challenge`, counting the signature first when the credential counts.
    public mutating func assert(challenge: [UInt8], _ ceremony: Ceremony) -> Assertion {
        if counts { signCount += 1 }
        let clientData = Self.clientData(type: ceremony.type ?? "webauthn.get", challenge: challenge, ceremony)
        let data = authenticatorData(ceremony, count: signCount, flags: 0)
        return Assertion(
            rawID: credentialID, clientDataJSON: clientData, authenticatorData: data,
            signature: sign(data + Digest.sha256(clientData)), userHandle: userHandle)
    }

    /// The 37 bytes every authenticator data starts with; `flags` adds AT or ED.
    public func authenticatorData(_ ceremony: Ceremony, count: UInt32, flags extra: UInt8) -> [UInt8] {
        var flags = extra
        if ceremony.userPresent { flags |= 0x01 }
        if ceremony.userVerified { flags |= 0x04 }
        if ceremony.backupEligible { flags |= 0x08 }
        if ceremony.backedUp { flags |= 0x10 }
        return Digest.sha256(Array(ceremony.rpID.utf8)) + [flags] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: count >> ($0 * 8)) }
    }

    /// Client data as browsers write it: `type`, `challenge`, `origin`, `crossOrigin`, in that order.
    public static func clientData(type: String, challenge: [UInt8], _ ceremony: Ceremony) -> [UInt8] {
        var json = #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(ceremony.origin)""#
        if let crossOrigin = ceremony.crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        return Array((json + "}").utf8)
    }
}
